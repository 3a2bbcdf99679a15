"use client";
/**
 * Calls to the people routers (`me`, `tokens`, `users`, `teams`) through the
 * console's tRPC client. Query keys live here too, so every page invalidates
 * the same ones.
 */
import { useMemo } from "react";
import { useTRPCClient } from "@/lib/trpc";
import type { NewUser, UserChange } from "./types";

/** TanStack Query keys of the identity reads; a write invalidates its family. */
export const IDENTITY_KEYS = {
  me: ["identity", "me"] as const,
  tokens: ["identity", "tokens"] as const,
  users: ["identity", "users"] as const,
  teams: ["identity", "teams"] as const,
};

export function useIdentityApi() {
  const client = useTRPCClient();
  return useMemo(
    () => ({
      me: () => client.me.get.query(),
      tokens: {
        list: () => client.tokens.list.query({}),
        create: (input: { name: string; expiresInDays?: number }) =>
          client.tokens.create.mutate(input),
        revoke: (name: string) => client.tokens.revoke.mutate({ name }),
      },
      users: {
        list: (input: { limit: number; cursor?: string; search?: string }) =>
          client.users.list.query(input),
        create: (input: NewUser) => client.users.create.mutate(input),
        update: (input: UserChange) => client.users.update.mutate(input),
        disable: (login: string) => client.users.disable.mutate({ login }),
        enable: (login: string) => client.users.enable.mutate({ login }),
        setPassword: (login: string, password: string) =>
          client.users.setPassword.mutate({ login, password }),
      },
      teams: {
        list: () => client.teams.list.query(),
        create: (input: { name: string; description?: string }) =>
          client.teams.create.mutate(input),
        delete: (name: string) => client.teams.delete.mutate({ name }),
        addMember: (team: string, login: string) => client.teams.addMember.mutate({ team, login }),
        removeMember: (team: string, login: string) =>
          client.teams.removeMember.mutate({ team, login }),
      },
    }),
    [client],
  );
}

export type IdentityApi = ReturnType<typeof useIdentityApi>;
