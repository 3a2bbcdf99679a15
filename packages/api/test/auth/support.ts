/**
 * Authentication as the console runs it, on the run's scratch database:
 * better-auth, its route handler (with the per-login limit), the actor
 * resolver, and people created straight through Prisma.
 */
import { randomUUID } from "node:crypto";
import type { Role } from "@peloton/engine";
import { createDb, type Db } from "@peloton/storage";
import "@peloton/test-support/storage/provided-context.ts";
import { inject } from "vitest";
import { createAuth } from "../../src/auth/better-auth.ts";
import { createAuthHandler } from "../../src/auth/handler.ts";
import { LoginFailureLimiter } from "../../src/auth/login-limit.ts";
import { hashPassword } from "../../src/auth/passwords.ts";
import { createActorResolver } from "../../src/auth/resolve.ts";
import { readAuthSettings } from "../../src/auth/settings.ts";

export const PUBLIC_URL = "http://console.test:3000";

export function authFixture(env: Record<string, string> = {}) {
  const db = createDb(inject("databaseUrl"), { max: 4 });
  const settings = readAuthSettings({
    PELOTON_PUBLIC_URL: PUBLIC_URL,
    PELOTON_AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
    ...env,
  });
  const auth = createAuth(db, settings);
  const limiter = new LoginFailureLimiter();
  const handler = createAuthHandler({ auth, settings, limiter });
  const resolve = createActorResolver({ db, auth });
  return { db, settings, auth, limiter, handler, resolve, close: () => db.$disconnect() };
}

let addressCounter = 0;
/** A client address of its own for each caller (better-auth limits sign-ins per address). */
export function freshAddress(): string {
  addressCounter += 1;
  return `10.0.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

export interface PersonFields {
  login: string;
  password?: string;
  role?: Role;
  teams?: string[];
  disabled?: boolean;
}

/** A user with a password (better-auth's "credential" account) and team memberships. */
export async function createPerson(db: Db, fields: PersonFields) {
  const user = await db.user.create({
    data: {
      login: fields.login,
      displayName: fields.login.charAt(0).toUpperCase() + fields.login.slice(1),
      email: `${fields.login}@example.test`,
      role: fields.role ?? "VIEWER",
      disabledAt: fields.disabled ? new Date() : null,
    },
  });
  if (fields.password) {
    await db.authAccount.create({
      data: {
        id: randomUUID(),
        accountId: user.id,
        providerId: "credential",
        userId: user.id,
        password: await hashPassword(fields.password),
      },
    });
  }
  for (const name of fields.teams ?? []) {
    const team = await db.team.upsert({ where: { name }, create: { name }, update: {} });
    await db.teamMembership.create({ data: { teamId: team.id, userId: user.id } });
  }
  return user;
}

/** POST /api/auth/sign-in/username through the handler, from `address`. */
export function signIn(
  handler: (req: Request) => Promise<Response>,
  login: string,
  password: string,
  address = freshAddress(),
): Promise<Response> {
  return handler(
    new Request(`${PUBLIC_URL}/api/auth/sign-in/username`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: PUBLIC_URL,
        "x-forwarded-for": address,
      },
      body: JSON.stringify({ username: login, password }),
    }),
  );
}

/** The Cookie header a browser would send back after `res`. */
export function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
