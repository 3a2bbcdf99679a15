"use client";
import { useQuery } from "@tanstack/react-query";
import { IDENTITY_KEYS, useIdentityApi } from "./identity-api";

/**
 * The signed-in person (`me.get`), read once per page load and shared by the
 * user menu and every `useAccess`: who one is changes only by signing in again
 * (or an admin's change, seen on the next load).
 */
export function useMe() {
  const api = useIdentityApi();
  return useQuery({
    queryKey: IDENTITY_KEYS.me,
    queryFn: api.me,
    staleTime: 5 * 60_000,
    retry: false,
  });
}
