/**
 * Users, owned by the identity service: create (with the password hash the
 * API computed), change role, name, grant and teams, disable (every session
 * deleted in the same transaction, so the person is out at their next
 * request), enable, and a new password. Each change commits with its audit
 * row; no password, plain or hashed, ever reaches the audit log.
 */
import type { Role } from "@peloton/engine";
import type { Repositories, StorageGateway, UserRecord } from "@peloton/storage";
import type { Acting } from "../common/acting.ts";
import { IdentityRefusal, type IdentityResult, refusingOn } from "./outcome.ts";

export interface UserCreation {
  login: string;
  displayName: string;
  /** Absent: a placeholder under the reserved `.invalid` domain (better-auth needs one). */
  email?: string | undefined;
  role: Role;
  teams: readonly string[];
  hostMaintenance: boolean;
  /** better-auth's scrypt hash (`hashPassword`); null for a user who signs in only by SSO. */
  passwordHash: string | null;
}

export interface UserUpdate {
  login: string;
  displayName?: string | undefined;
  role?: Role | undefined;
  /** The whole set of teams (replaces the current one). */
  teams?: readonly string[] | undefined;
  hostMaintenance?: boolean | undefined;
}

/** The placeholder address of a user created without one. */
export const placeholderEmail = (login: string) => `${login}@users.peloton.invalid`;

const unknownUser = (login: string) =>
  new IdentityRefusal({ kind: "not_found", field: "login", message: `no user "${login}"` });

async function userOrRefuse(tx: Repositories, login: string): Promise<UserRecord> {
  const user = await tx.identity.userByLogin(login);
  if (!user) throw unknownUser(login);
  return user;
}

/** The teams' ids, refusing the first name that is not a team. */
async function teamIds(tx: Repositories, names: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of new Set(names)) {
    const team = await tx.identity.teamByName(name);
    if (!team)
      throw new IdentityRefusal({
        kind: "not_found",
        field: "teams",
        message: `no team "${name}"`,
      });
    ids.push(team.id);
  }
  return ids;
}

/** Refuses a change that would leave no admin able to sign in. */
async function keepAnAdmin(tx: Repositories, user: UserRecord, what: string): Promise<void> {
  if (user.role !== "ADMIN" || user.disabledAt !== null) return;
  await tx.identity.lockAdmins();
  if ((await tx.identity.activeAdminCount()) <= 1)
    throw new IdentityRefusal({
      kind: "conflict",
      field: "login",
      message: `cannot ${what} ${user.login}: they are the last admin`,
    });
}

const auditView = (u: UserRecord) => ({
  login: u.login,
  displayName: u.displayName,
  email: u.email,
  role: u.role,
  teams: u.teams,
  hostMaintenance: u.hostMaintenance,
  disabled: u.disabledAt !== null,
});

async function audited(
  tx: Repositories,
  acting: Acting,
  action: string,
  login: string,
  before: UserRecord | undefined,
  after: UserRecord | undefined,
): Promise<void> {
  await tx.audit.record({
    actor: acting.login,
    via: acting.via,
    action,
    targetType: "user",
    targetId: login,
    ...(before ? { before: auditView(before) } : {}),
    ...(after ? { after: auditView(after) } : {}),
  });
}

/** The user as stored now (after the transaction's writes). */
async function reread(tx: Repositories, id: string): Promise<UserRecord> {
  const user = await tx.identity.userById(id);
  if (!user) throw new Error(`user ${id} vanished inside its own transaction`);
  return user;
}

export function createUser(
  gateway: StorageGateway,
  acting: Acting,
  u: UserCreation,
): Promise<IdentityResult<UserRecord>> {
  const duplicate = {
    kind: "duplicate" as const,
    field: "login",
    message: `a user "${u.login}" already exists`,
  };
  return refusingOn(duplicate, () =>
    gateway.transaction(async (tx) => {
      if (await tx.identity.userByLogin(u.login)) throw new IdentityRefusal(duplicate);
      const ids = await teamIds(tx, u.teams);
      const created = await tx.identity.createUser({
        login: u.login,
        displayName: u.displayName,
        email: u.email ?? placeholderEmail(u.login),
        role: u.role,
        hostMaintenance: u.hostMaintenance,
      });
      for (const teamId of ids) await tx.identity.addMember(teamId, created.id);
      if (u.passwordHash !== null) await tx.identity.setPasswordHash(created.id, u.passwordHash);
      const user = await reread(tx, created.id);
      await audited(tx, acting, "user.create", user.login, undefined, user);
      return user;
    }),
  );
}

export function updateUser(
  gateway: StorageGateway,
  acting: Acting,
  change: UserUpdate,
): Promise<IdentityResult<UserRecord>> {
  return refusingOn(
    { kind: "conflict", field: "login", message: `user "${change.login}" changed meanwhile` },
    () =>
      gateway.transaction(async (tx) => {
        const before = await userOrRefuse(tx, change.login);
        if (change.role !== undefined && change.role !== "ADMIN")
          await keepAnAdmin(tx, before, "demote");
        await tx.identity.updateUser(before.id, change);
        if (change.teams !== undefined) {
          const wanted = await teamIds(tx, change.teams);
          for (const team of await tx.identity.listTeams())
            if (!wanted.includes(team.id) && team.members.includes(before.login))
              await tx.identity.removeMember(team.id, before.id);
          for (const teamId of wanted) await tx.identity.addMember(teamId, before.id);
        }
        const after = await reread(tx, before.id);
        await audited(tx, acting, "user.update", before.login, before, after);
        return after;
      }),
  );
}

/** Disables the user and deletes all their sessions, in one transaction. */
export function disableUser(
  gateway: StorageGateway,
  acting: Acting,
  login: string,
  now: Date = new Date(),
): Promise<IdentityResult<UserRecord>> {
  return refusingOn(
    { kind: "conflict", field: "login", message: `user "${login}" changed meanwhile` },
    () =>
      gateway.transaction(async (tx) => {
        const before = await userOrRefuse(tx, login);
        if (before.login === acting.login)
          throw new IdentityRefusal({
            kind: "conflict",
            field: "login",
            message: "you cannot disable yourself",
          });
        if (before.disabledAt !== null) return before;
        await keepAnAdmin(tx, before, "disable");
        await tx.identity.setDisabledAt(before.id, now);
        const sessions = await tx.identity.deleteSessions(before.id);
        const after = await reread(tx, before.id);
        await tx.audit.record({
          actor: acting.login,
          via: acting.via,
          action: "user.disable",
          targetType: "user",
          targetId: login,
          before: auditView(before),
          after: { ...auditView(after), sessionsEnded: sessions },
        });
        return after;
      }),
  );
}

export function enableUser(
  gateway: StorageGateway,
  acting: Acting,
  login: string,
): Promise<IdentityResult<UserRecord>> {
  return refusingOn(
    { kind: "conflict", field: "login", message: `user "${login}" changed meanwhile` },
    () =>
      gateway.transaction(async (tx) => {
        const before = await userOrRefuse(tx, login);
        if (before.disabledAt === null) return before;
        await tx.identity.setDisabledAt(before.id, null);
        const after = await reread(tx, before.id);
        await audited(tx, acting, "user.enable", login, before, after);
        return after;
      }),
  );
}

/** A new password (its hash): the audit row says that it changed, never what to. */
export function setUserPassword(
  gateway: StorageGateway,
  acting: Acting,
  login: string,
  passwordHash: string,
): Promise<IdentityResult<UserRecord>> {
  return refusingOn(
    { kind: "conflict", field: "login", message: `user "${login}" changed meanwhile` },
    () =>
      gateway.transaction(async (tx) => {
        const user = await userOrRefuse(tx, login);
        await tx.identity.setPasswordHash(user.id, passwordHash);
        await tx.audit.record({
          actor: acting.login,
          via: acting.via,
          action: "user.setPassword",
          targetType: "user",
          targetId: login,
        });
        return user;
      }),
  );
}
