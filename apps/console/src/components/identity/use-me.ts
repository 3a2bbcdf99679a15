"use client";
import { useQuery } from "@tanstack/react-query";
import { useHydrated } from "@/lib/use-hydrated";
import { IDENTITY_KEYS, useIdentityApi } from "./identity-api";
import type { Me } from "./types";

export interface SignedInPerson {
  /** Who is signed in; undefined while loading, and always during hydration. */
  data: Me | undefined;
  isPending: boolean;
  isError: boolean;
}

/**
 * The signed-in person (`me.get`), read once per page load and shared by the
 * user menu and every `useAccess`: who one is changes only by signing in again
 * (or an admin's change, seen on the next load).
 *
 * Until the page has hydrated it answers "loading", whatever the cache holds:
 * the server rendered every action as "checking who you are", and a part of
 * the page that hydrates later (behind a Suspense boundary) must render the
 * same, or React reports a hydration error and re-renders the whole tree.
 */
export function useMe(): SignedInPerson {
  const api = useIdentityApi();
  const hydrated = useHydrated();
  const me = useQuery({
    queryKey: IDENTITY_KEYS.me,
    queryFn: api.me,
    staleTime: 5 * 60_000,
    retry: false,
  });
  if (!hydrated) return { data: undefined, isPending: true, isError: false };
  return { data: me.data, isPending: me.isPending, isError: me.isError };
}
