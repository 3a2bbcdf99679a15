/**
 * The first start (docs/identity.md): on an empty `users` table, the
 * team-less `admin` with PELOTON_ADMIN_PASSWORD or a random password, and,
 * with demo data, the demo pools' owning teams and one user per role below
 * admin in one of them. Generated passwords are printed once, in a box on
 * the terminal, and kept nowhere but as hashes. Once anyone exists this does
 * nothing, so it runs on every start (after migrations).
 */
import { randomBytes } from "node:crypto";
import type { Role } from "@peloton/engine";
import { DEMO_POOLS, type IdentityService } from "@peloton/scheduler";
import type { ReadOnlyGateway } from "@peloton/storage";
import { hashPassword } from "../auth/passwords.ts";
import { MIN_PASSWORD_LENGTH } from "../schemas/identity.ts";

export const ADMIN_LOGIN = "admin";
/** The demo users' team: /infra's owner, whose lead may raise /infra/batch (demo-pools.ts). */
export const DEMO_USERS_TEAM = "infra";

const DEMO_USERS: readonly { login: string; displayName: string; role: Role }[] = [
  { login: "lead", displayName: "Demo team lead", role: "TEAM_LEAD" },
  { login: "operator", displayName: "Demo operator", role: "OPERATOR" },
  { login: "viewer", displayName: "Demo viewer", role: "VIEWER" },
];

/** Who the audit log names for these: nobody signed in did it. */
const SYSTEM = { login: "system", via: "system" };

export interface FirstPeopleOptions {
  gateway: Pick<ReadOnlyGateway, "identity">;
  identity: IdentityService;
  /** Demo data is on: create the demo teams and users too. */
  demo: boolean;
  /** PELOTON_ADMIN_PASSWORD (12+ characters); a random one when absent. */
  adminPassword?: string | undefined;
  /** Where the box of passwords goes (the terminal). */
  print: (text: string) => void;
}

export interface FirstPerson {
  login: string;
  role: Role;
  teams: string[];
}

/** 24 base64url characters (144 random bits). */
export function randomPassword(): string {
  return randomBytes(18).toString("base64url");
}

/** Lines in a box, so that the passwords stand out in a start-up log. */
export function boxed(lines: readonly string[]): string {
  const width = Math.max(...lines.map((l) => l.length));
  const bar = "─".repeat(width + 2);
  return [`┌${bar}┐`, ...lines.map((l) => `│ ${l.padEnd(width)} │`), `└${bar}┘`].join("\n");
}

async function createPerson(
  opts: FirstPeopleOptions,
  person: { login: string; displayName: string; role: Role; teams: string[] },
  password: string,
): Promise<boolean> {
  const result = await opts.identity.users.create(SYSTEM, {
    ...person,
    hostMaintenance: person.role === "ADMIN",
    passwordHash: await hashPassword(password),
  });
  return result.ok;
}

/** The people created (empty when someone already existed). */
export async function ensureFirstPeople(opts: FirstPeopleOptions): Promise<FirstPerson[]> {
  if ((await opts.gateway.identity.userCount()) > 0) return [];
  const given = opts.adminPassword ? opts.adminPassword : undefined;
  if (given !== undefined && given.length < MIN_PASSWORD_LENGTH)
    throw new Error(`PELOTON_ADMIN_PASSWORD has fewer than ${MIN_PASSWORD_LENGTH} characters`);

  const adminPassword = given ?? randomPassword();
  const admin = {
    login: ADMIN_LOGIN,
    displayName: "Administrator",
    role: "ADMIN" as const,
    teams: [],
  };
  // Refused only when another replica starting at the same moment created it: it prints, not us.
  if (!(await createPerson(opts, admin, adminPassword))) return [];
  const created: FirstPerson[] = [admin];
  const lines = [
    "First start: people created (passwords shown once; change them after signing in)",
    "",
    `  ${ADMIN_LOGIN.padEnd(9)} ADMIN      ${given === undefined ? adminPassword : "(PELOTON_ADMIN_PASSWORD)"}`,
  ];

  if (opts.demo) {
    for (const team of [...new Set(DEMO_POOLS.map((p) => p.owningTeam))])
      await opts.identity.teams.create(SYSTEM, team, "demo team (owns demo pools)");
    for (const user of DEMO_USERS) {
      const password = randomPassword();
      const person = { ...user, teams: [DEMO_USERS_TEAM] };
      if (!(await createPerson(opts, person, password))) continue;
      created.push(person);
      lines.push(
        `  ${user.login.padEnd(9)} ${user.role.padEnd(10)} ${password}   team ${DEMO_USERS_TEAM}`,
      );
    }
  }
  opts.print(boxed(lines));
  return created;
}
