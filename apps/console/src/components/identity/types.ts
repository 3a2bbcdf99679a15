/**
 * The people routers' shapes (docs/identity.md; `me`, `tokens`, `users`,
 * `teams`), written here while those routers are built on another branch.
 * Once they are in AppRouter, these become `RouterOutputs["me"]["get"]` and
 * friends (lib/api-types.ts) and identity-api.ts calls the typed client.
 */
import type { Role } from "@peloton/engine";

export type { Role };

export type ActorChannel =
  | { kind: "session" }
  | { kind: "token"; tokenId: string; tokenName: string };

/** `me.get`: who is signed in, with the teams they belong to. */
export interface Me {
  userId: string;
  login: string;
  displayName: string;
  role: Role;
  teams: readonly string[];
  hostMaintenance: boolean;
  via: ActorChannel;
}

/** `tokens.list` row (the token itself is never listed, only its prefix). */
export interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** `tokens.create`: the one time the token is shown. */
export interface CreatedToken {
  token: string;
  id: string;
  name: string;
  prefix: string;
}

export interface UserRow {
  id: string;
  login: string;
  displayName: string;
  email: string | null;
  role: Role;
  teams: readonly string[];
  hostMaintenance: boolean;
  disabledAt: Date | null;
  createdAt: Date;
}

export interface UsersPage {
  items: UserRow[];
  nextCursor: string | null;
}

export interface TeamRow {
  id: string;
  name: string;
  description: string;
  /** Logins of the members. */
  members: readonly string[];
}

export interface NewUser {
  login: string;
  displayName: string;
  email?: string | undefined;
  role: Role;
  teams: string[];
  hostMaintenance: boolean;
  password: string;
}

export interface UserChange {
  login: string;
  displayName?: string;
  role?: Role;
  teams?: string[];
  hostMaintenance?: boolean;
}
