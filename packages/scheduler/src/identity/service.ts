/**
 * The identity service (docs/identity.md): every write about people, teams
 * and tokens, each with its audit row in one transaction. The API hashes
 * passwords and makes tokens; this service only ever sees their hashes.
 */
import type { ApiTokenRecord, StorageGateway, TeamRecord, UserRecord } from "@peloton/storage";
import type { Acting } from "../common/acting.ts";
import type { IdentityResult } from "./outcome.ts";
import { changeMembership, createTeam, deleteTeam } from "./teams.ts";
import { createToken, revokeToken, type TokenCreation } from "./tokens.ts";
import {
  createUser,
  disableUser,
  enableUser,
  setUserPassword,
  type UserCreation,
  type UserUpdate,
  updateUser,
} from "./users.ts";

export interface IdentityService {
  users: {
    create(acting: Acting, user: UserCreation): Promise<IdentityResult<UserRecord>>;
    update(acting: Acting, change: UserUpdate): Promise<IdentityResult<UserRecord>>;
    /** Disabled and signed out everywhere at once (sessions deleted in the same transaction). */
    disable(acting: Acting, login: string): Promise<IdentityResult<UserRecord>>;
    enable(acting: Acting, login: string): Promise<IdentityResult<UserRecord>>;
    setPassword(
      acting: Acting,
      login: string,
      passwordHash: string,
    ): Promise<IdentityResult<UserRecord>>;
  };
  teams: {
    create(acting: Acting, name: string, description?: string): Promise<IdentityResult<TeamRecord>>;
    delete(acting: Acting, name: string): Promise<IdentityResult<TeamRecord>>;
    addMember(acting: Acting, team: string, login: string): Promise<IdentityResult<TeamRecord>>;
    removeMember(acting: Acting, team: string, login: string): Promise<IdentityResult<TeamRecord>>;
  };
  tokens: {
    create(acting: Acting, token: TokenCreation): Promise<IdentityResult<ApiTokenRecord>>;
    revoke(acting: Acting, userId: string, name: string): Promise<IdentityResult<ApiTokenRecord>>;
    /** A person's tokens, newest first (revoked ones too). */
    list(userId: string): Promise<ApiTokenRecord[]>;
  };
}

export function createIdentityService(gateway: StorageGateway): IdentityService {
  return {
    users: {
      create: (acting, user) => createUser(gateway, acting, user),
      update: (acting, change) => updateUser(gateway, acting, change),
      disable: (acting, login) => disableUser(gateway, acting, login),
      enable: (acting, login) => enableUser(gateway, acting, login),
      setPassword: (acting, login, hash) => setUserPassword(gateway, acting, login, hash),
    },
    teams: {
      create: (acting, name, description) => createTeam(gateway, acting, name, description),
      delete: (acting, name) => deleteTeam(gateway, acting, name),
      addMember: (acting, team, login) => changeMembership(gateway, acting, team, login, "add"),
      removeMember: (acting, team, login) =>
        changeMembership(gateway, acting, team, login, "remove"),
    },
    tokens: {
      create: (acting, token) => createToken(gateway, acting, token),
      revoke: (acting, userId, name) => revokeToken(gateway, acting, userId, name),
      list: (userId) => gateway.identity.listTokens(userId),
    },
  };
}
