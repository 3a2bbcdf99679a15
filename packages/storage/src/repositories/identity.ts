/**
 * People and their ways in (docs/identity.md): users, teams and memberships,
 * password hashes (better-auth's `auth_accounts`, provider "credential"),
 * sessions (only deleted here: better-auth creates them) and personal API
 * tokens (only their SHA-256 and prefix). The identity service
 * (scheduler/identity) writes through these in one transaction with the
 * audit row; the API reads users, teams and tokens on the read-only view.
 * Nothing here ever sees a plain password or token.
 */
import type { Role } from "@peloton/engine";
import type { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import { decodeKeyset, encodeKeyset } from "./keyset.ts";
import type { Page } from "./pool-history.ts";

export interface UserRecord {
  id: string;
  login: string;
  displayName: string;
  email: string;
  role: Role;
  /** Team names, sorted. */
  teams: string[];
  hostMaintenance: boolean;
  disabledAt: Date | null;
  createdAt: Date;
}

export interface NewUser {
  login: string;
  displayName: string;
  email: string;
  role: Role;
  hostMaintenance: boolean;
}

export interface UserChange {
  displayName?: string | undefined;
  role?: Role | undefined;
  hostMaintenance?: boolean | undefined;
}

export interface UserQuery {
  limit: number;
  cursor?: string | null | undefined;
  /** Part of the login or display name, case-insensitive. */
  search?: string | undefined;
}

export interface TeamRecord {
  id: string;
  name: string;
  description: string;
  /** Members' logins, sorted. */
  members: string[];
  createdAt: Date;
}

export interface ApiTokenRecord {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export interface NewApiToken {
  userId: string;
  name: string;
  /** SHA-256 hex of the token; the token itself is shown once and never stored. */
  tokenHash: string;
  prefix: string;
  expiresAt: Date | null;
}

/** better-auth's provider id for username/password accounts. */
export const CREDENTIAL_PROVIDER = "credential";

const USER_SELECT = {
  id: true,
  login: true,
  displayName: true,
  email: true,
  role: true,
  hostMaintenance: true,
  disabledAt: true,
  createdAt: true,
  teams: { select: { team: { select: { name: true } } } },
} as const satisfies Prisma.UserSelect;

type UserRow = Prisma.UserGetPayload<{ select: typeof USER_SELECT }>;

const toUser = ({ teams, ...u }: UserRow): UserRecord => ({
  ...u,
  teams: teams.map((m) => m.team.name).sort(),
});

const TEAM_SELECT = {
  id: true,
  name: true,
  description: true,
  createdAt: true,
  members: { select: { user: { select: { login: true } } } },
} as const satisfies Prisma.TeamSelect;

type TeamRow = Prisma.TeamGetPayload<{ select: typeof TEAM_SELECT }>;

const toTeam = ({ members, ...t }: TeamRow): TeamRecord => ({
  ...t,
  members: members.map((m) => m.user.login).sort(),
});

const TOKEN_SELECT = {
  id: true,
  userId: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  expiresAt: true,
  revokedAt: true,
} as const satisfies Prisma.ApiTokenSelect;

export function identityRepository(db: DbOrTx) {
  return {
    // ─── reads ───────────────────────────────────────────────────────────
    async userByLogin(login: string): Promise<UserRecord | null> {
      const row = await db.user.findUnique({ where: { login }, select: USER_SELECT });
      return row ? toUser(row) : null;
    },

    async userById(id: string): Promise<UserRecord | null> {
      const row = await db.user.findUnique({ where: { id }, select: USER_SELECT });
      return row ? toUser(row) : null;
    },

    /** Users by login, a page at a time (keyset on the unique login). */
    async listUsers(q: UserQuery): Promise<Page<UserRecord>> {
      const after = decodeKeyset(q.cursor);
      const search = q.search?.trim();
      const rows = await db.user.findMany({
        where: {
          ...(after ? { login: { gt: String(after.k) } } : {}),
          ...(search
            ? {
                OR: [
                  { login: { contains: search, mode: "insensitive" } },
                  { displayName: { contains: search, mode: "insensitive" } },
                ],
              }
            : {}),
        },
        orderBy: { login: "asc" },
        take: q.limit + 1,
        select: USER_SELECT,
      });
      const items = rows.slice(0, q.limit).map(toUser);
      const last = items.at(-1);
      return {
        items,
        nextCursor: rows.length > q.limit && last ? encodeKeyset({ v: null, k: last.login }) : null,
      };
    },

    userCount: (): Promise<number> => db.user.count(),

    /** Admins who may still sign in (the last of them may not be disabled or demoted). */
    activeAdminCount: (): Promise<number> =>
      db.user.count({ where: { role: "ADMIN", disabledAt: null } }),

    async teamByName(name: string): Promise<TeamRecord | null> {
      const row = await db.team.findUnique({ where: { name }, select: TEAM_SELECT });
      return row ? toTeam(row) : null;
    },

    async listTeams(): Promise<TeamRecord[]> {
      const rows = await db.team.findMany({ orderBy: { name: "asc" }, select: TEAM_SELECT });
      return rows.map(toTeam);
    },

    /** A user's tokens, newest first, revoked ones included (the list shows them as revoked). */
    listTokens: (userId: string): Promise<ApiTokenRecord[]> =>
      db.apiToken.findMany({
        where: { userId },
        orderBy: { createdAt: "desc" },
        select: TOKEN_SELECT,
      }),

    /** The user's live (not revoked) token of that name: names are unique among those. */
    liveTokenByName: (userId: string, name: string): Promise<ApiTokenRecord | null> =>
      db.apiToken.findFirst({ where: { userId, name, revokedAt: null }, select: TOKEN_SELECT }),

    // ─── writes ──────────────────────────────────────────────────────────
    async createUser(u: NewUser): Promise<UserRecord> {
      const row = await db.user.create({
        data: { ...u, loginDisplay: u.login },
        select: USER_SELECT,
      });
      return toUser(row);
    },

    async updateUser(id: string, change: UserChange): Promise<void> {
      await db.user.update({
        where: { id },
        data: {
          ...(change.displayName === undefined ? {} : { displayName: change.displayName }),
          ...(change.role === undefined ? {} : { role: change.role }),
          ...(change.hostMaintenance === undefined
            ? {}
            : { hostMaintenance: change.hostMaintenance }),
        },
      });
    },

    async setDisabledAt(id: string, at: Date | null): Promise<void> {
      await db.user.update({ where: { id }, data: { disabledAt: at } });
    },

    /** Signs the user out everywhere: every better-auth session row goes. */
    async deleteSessions(userId: string): Promise<number> {
      const { count } = await db.authSession.deleteMany({ where: { userId } });
      return count;
    },

    /** The user's password hash (better-auth's credential account, accountId = user id). */
    async setPasswordHash(userId: string, hash: string): Promise<void> {
      await db.authAccount.upsert({
        where: { providerId_accountId: { providerId: CREDENTIAL_PROVIDER, accountId: userId } },
        create: {
          id: crypto.randomUUID(),
          providerId: CREDENTIAL_PROVIDER,
          accountId: userId,
          userId,
          password: hash,
        },
        update: { password: hash },
      });
    },

    /** The stored hash, for sign-in checks in tests and the first start. */
    async passwordHash(userId: string): Promise<string | null> {
      const row = await db.authAccount.findUnique({
        where: { providerId_accountId: { providerId: CREDENTIAL_PROVIDER, accountId: userId } },
        select: { password: true },
      });
      return row?.password ?? null;
    },

    async createTeam(name: string, description: string): Promise<TeamRecord> {
      const row = await db.team.create({ data: { name, description }, select: TEAM_SELECT });
      return toTeam(row);
    },

    /** Deletes the team; its memberships go with it (cascade). */
    async deleteTeam(id: string): Promise<void> {
      await db.team.delete({ where: { id } });
    },

    async addMember(teamId: string, userId: string): Promise<void> {
      await db.teamMembership.upsert({
        where: { teamId_userId: { teamId, userId } },
        create: { teamId, userId },
        update: {},
      });
    },

    async removeMember(teamId: string, userId: string): Promise<boolean> {
      const { count } = await db.teamMembership.deleteMany({ where: { teamId, userId } });
      return count > 0;
    },

    /**
     * Holds the user's row until the transaction ends: token creations of one
     * person take turns, so two of the same name cannot both pass the check
     * (names are unique among live tokens only, which no index expresses).
     */
    async lockUser(userId: string): Promise<void> {
      await db.$queryRaw`SELECT 1 FROM users WHERE id = ${userId}::uuid FOR UPDATE`;
    },

    /** Holds every admin's row: two admins disabling each other at once cannot both pass. */
    async lockAdmins(): Promise<void> {
      await db.$queryRaw`SELECT 1 FROM users WHERE role = 'ADMIN' FOR UPDATE`;
    },

    async createToken(t: NewApiToken): Promise<ApiTokenRecord> {
      return db.apiToken.create({ data: t, select: TOKEN_SELECT });
    },

    /** Revokes the named token; false when the user has no live token of that name. */
    async revokeToken(userId: string, name: string, at: Date): Promise<ApiTokenRecord | null> {
      const live = await db.apiToken.findFirst({
        where: { userId, name, revokedAt: null },
        select: { id: true },
      });
      if (!live) return null;
      return db.apiToken.update({
        where: { id: live.id },
        data: { revokedAt: at },
        select: TOKEN_SELECT,
      });
    },
  };
}
