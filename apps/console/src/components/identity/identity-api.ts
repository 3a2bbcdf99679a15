"use client";
/**
 * Calls to the people routers (`me`, `tokens`, `users`, `teams`) through the
 * console's tRPC client, typed by types.ts. They go through the untyped
 * client because the routers are not in this branch's AppRouter yet; once
 * they are, each function here becomes `client.<router>.<procedure>` and the
 * casts go. Query keys live here too, so every page invalidates the same ones.
 */
import { getUntypedClient } from "@trpc/client";
import { useMemo } from "react";
import { useTRPCClient } from "@/lib/trpc";
import type {
  CreatedToken,
  Me,
  NewUser,
  TeamRow,
  TokenRow,
  UserChange,
  UserRow,
  UsersPage,
} from "./types";

/** TanStack Query keys of the identity reads; a write invalidates its family. */
export const IDENTITY_KEYS = {
  me: ["identity", "me"] as const,
  tokens: ["identity", "tokens"] as const,
  users: ["identity", "users"] as const,
  teams: ["identity", "teams"] as const,
};

export function useIdentityApi() {
  const client = getUntypedClient(useTRPCClient());
  return useMemo(() => {
    const query = <T>(path: string, input?: unknown) => client.query(path, input) as Promise<T>;
    const mutation = <T>(path: string, input?: unknown) =>
      client.mutation(path, input) as Promise<T>;
    return {
      me: () => query<Me>("me.get"),
      tokens: {
        list: () => query<TokenRow[]>("tokens.list", {}),
        create: (input: { name: string; expiresInDays?: number }) =>
          mutation<CreatedToken>("tokens.create", input),
        revoke: (name: string) => mutation<{ revoked: true }>("tokens.revoke", { name }),
      },
      users: {
        list: (input: { limit: number; cursor?: string; search?: string }) =>
          query<UsersPage>("users.list", input),
        create: (input: NewUser) => mutation<UserRow>("users.create", input),
        update: (input: UserChange) => mutation<UserRow>("users.update", input),
        disable: (login: string) => mutation<unknown>("users.disable", { login }),
        enable: (login: string) => mutation<unknown>("users.enable", { login }),
        setPassword: (login: string, password: string) =>
          mutation<unknown>("users.setPassword", { login, password }),
      },
      teams: {
        list: () => query<TeamRow[]>("teams.list"),
        create: (input: { name: string; description?: string }) =>
          mutation<unknown>("teams.create", input),
        delete: (name: string) => mutation<unknown>("teams.delete", { name }),
        addMember: (team: string, login: string) =>
          mutation<unknown>("teams.addMember", { team, login }),
        removeMember: (team: string, login: string) =>
          mutation<unknown>("teams.removeMember", { team, login }),
      },
    };
  }, [client]);
}

export type IdentityApi = ReturnType<typeof useIdentityApi>;
