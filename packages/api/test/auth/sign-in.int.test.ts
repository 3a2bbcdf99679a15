/**
 * Signing in with a login and a password through the /api/auth handler,
 * then being that person on the next request: the cookie, the actor, and
 * everything that must stop a session or a token at once.
 */

import { createHmac } from "node:crypto";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newApiToken } from "../../src/auth/tokens.ts";
import { authFixture, cookieOf, createPerson, PUBLIC_URL, signIn } from "./support.ts";

const fx = authFixture();

beforeAll(async () => {
  await resetDatabase();
  await createPerson(fx.db, {
    login: "alice",
    password: "correct horse",
    role: "OPERATOR",
    teams: ["ml", "infra"],
  });
  await createPerson(fx.db, { login: "bob", password: "bob's password", role: "VIEWER" });
});
afterAll(() => fx.close());

const withCookie = (cookie: string) =>
  new Request(`${PUBLIC_URL}/api/trpc/me.get`, { headers: { cookie } });
const withToken = (token: string, cookie?: string) =>
  new Request(`${PUBLIC_URL}/api/trpc/me.get`, {
    headers: { authorization: `Bearer ${token}`, ...(cookie ? { cookie } : {}) },
  });

async function tokenFor(
  login: string,
  fields: { expiresAt?: Date; revokedAt?: Date; name?: string } = {},
) {
  const user = await fx.db.user.findUniqueOrThrow({ where: { login } });
  const minted = newApiToken();
  const row = await fx.db.apiToken.create({
    data: {
      userId: user.id,
      name: fields.name ?? `t-${minted.prefix}`,
      tokenHash: minted.tokenHash,
      prefix: minted.prefix,
      expiresAt: fields.expiresAt ?? null,
      revokedAt: fields.revokedAt ?? null,
    },
  });
  return { ...minted, id: row.id, name: row.name };
}

describe("sign-in with a login and a password", () => {
  it("sets an HTTP-only, SameSite=Lax session cookie that resolves to the actor", async () => {
    const res = await signIn(fx.handler, "alice", "correct horse");
    expect(res.status).toBe(200);
    const setCookie = res.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i); // http:// public URL
    expect(setCookie).toMatch(/Max-Age=604800/);
    const actor = await fx.resolve(withCookie(cookieOf(res)));
    expect(actor).toMatchObject({
      login: "alice",
      displayName: "Alice",
      role: "OPERATOR",
      teams: ["infra", "ml"],
      hostMaintenance: false,
      via: { kind: "session" },
    });
    const session = await fx.db.authSession.findFirstOrThrow({ where: { userId: actor?.userId } });
    const days = (session.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
  });

  it("accepts the login in any case (logins are stored lower-case)", async () => {
    expect((await signIn(fx.handler, "ALICE", "correct horse")).status).toBe(200);
  });

  it("refuses a wrong password or an unknown login with the same answer, and no cookie", async () => {
    for (const [login, password] of [
      ["alice", "wrong password"],
      ["nobody", "correct horse"],
    ] as const) {
      const res = await signIn(fx.handler, login, password);
      expect(res.status).toBe(401);
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  it("offers no sign-up, no email sign-in, no renaming oneself", async () => {
    for (const path of [
      "/api/auth/sign-up/email",
      "/api/auth/sign-in/email",
      "/api/auth/update-user",
      "/api/auth/is-username-available",
    ]) {
      const res = await fx.handler(
        new Request(`${PUBLIC_URL}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: PUBLIC_URL },
          body: JSON.stringify({ email: "eve@example.test", password: "12345678", name: "Eve" }),
        }),
      );
      expect(res.status).toBe(404);
    }
    expect(await fx.db.user.count({ where: { email: "eve@example.test" } })).toBe(0);
  });

  it("is no actor without a cookie, or with a forged one", async () => {
    expect(await fx.resolve(new Request(`${PUBLIC_URL}/api/trpc/me.get`))).toBeNull();
    expect(await fx.resolve(withCookie("better-auth.session_token=forged.signature"))).toBeNull();
    // A real session's token under a signature of another secret.
    const real = cookieOf(await signIn(fx.handler, "bob", "bob's password"));
    const token = decodeURIComponent(real.split("=")[1] ?? "").split(".")[0] ?? "";
    const wrong = createHmac("sha256", "another-secret-another-secret-0123456")
      .update(token)
      .digest("base64");
    expect(
      await fx.resolve(
        withCookie(`better-auth.session_token=${encodeURIComponent(`${token}.${wrong}`)}`),
      ),
    ).toBeNull();
    expect(await fx.resolve(withCookie(real))).toMatchObject({ login: "bob" });
  });

  it("extends a session used a day after it was last extended, to 7 days from now", async () => {
    const cookie = cookieOf(await signIn(fx.handler, "bob", "bob's password"));
    const actor = await fx.resolve(withCookie(cookie));
    const [session] = await fx.db.authSession.findMany({
      where: { userId: actor?.userId },
      orderBy: { createdAt: "desc" },
      take: 1,
    });
    const inFiveDays = new Date(Date.now() + 5 * 86_400_000);
    await fx.db.authSession.update({ where: { id: session?.id }, data: { expiresAt: inFiveDays } });
    expect(await fx.resolve(withCookie(cookie))).toMatchObject({ login: "bob" });
    const extended = await fx.db.authSession.findUniqueOrThrow({ where: { id: session?.id } });
    expect(extended.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);
    // Expired: no actor.
    await fx.db.authSession.update({
      where: { id: session?.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await fx.resolve(withCookie(cookie))).toBeNull();
  });

  it("ends the session on sign-out", async () => {
    const cookie = cookieOf(await signIn(fx.handler, "bob", "bob's password"));
    expect(await fx.resolve(withCookie(cookie))).not.toBeNull();
    const out = await fx.handler(
      new Request(`${PUBLIC_URL}/api/auth/sign-out`, {
        method: "POST",
        headers: { cookie, origin: PUBLIC_URL, "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(out.status).toBe(200);
    expect(await fx.resolve(withCookie(cookie))).toBeNull();
  });

  it("lists the providers: password, and no SSO without PELOTON_OIDC_*", async () => {
    const res = await fx.handler(new Request(`${PUBLIC_URL}/api/auth/providers`));
    expect(await res.json()).toEqual({ password: true, sso: null });
  });
});

describe("personal tokens", () => {
  it("resolve to their owner with the token's name, and record their use at most once a minute", async () => {
    const token = await tokenFor("alice", { name: "ci" });
    const actor = await fx.resolve(withToken(token.token));
    expect(actor).toMatchObject({
      login: "alice",
      role: "OPERATOR",
      teams: ["infra", "ml"],
      via: { kind: "token", tokenId: token.id, tokenName: "ci" },
    });
    const first = await fx.db.apiToken.findUniqueOrThrow({ where: { id: token.id } });
    expect(first.lastUsedAt).not.toBeNull();
    await fx.resolve(withToken(token.token));
    const second = await fx.db.apiToken.findUniqueOrThrow({ where: { id: token.id } });
    expect(second.lastUsedAt).toEqual(first.lastUsedAt);
  });

  it("refuse a revoked, an expired, an unknown or a malformed token, even alongside a valid cookie", async () => {
    const cookie = cookieOf(await signIn(fx.handler, "alice", "correct horse"));
    const revoked = await tokenFor("alice", { revokedAt: new Date() });
    const expired = await tokenFor("alice", { expiresAt: new Date(Date.now() - 1000) });
    for (const presented of [
      revoked.token,
      expired.token,
      newApiToken().token,
      "pt_short",
      "not-a-token",
    ]) {
      expect(await fx.resolve(withToken(presented))).toBeNull();
      expect(await fx.resolve(withToken(presented, cookie))).toBeNull();
    }
  });

  it("a token that has not expired yet still works", async () => {
    const later = await tokenFor("alice", { expiresAt: new Date(Date.now() + 3_600_000) });
    expect(await fx.resolve(withToken(later.token))).toMatchObject({ login: "alice" });
  });
});

describe("a disabled user", () => {
  it("loses their session and tokens at once, and cannot sign in again", async () => {
    await createPerson(fx.db, { login: "carol", password: "carol's password", role: "ADMIN" });
    const cookie = cookieOf(await signIn(fx.handler, "carol", "carol's password"));
    const token = await tokenFor("carol");
    expect(await fx.resolve(withCookie(cookie))).toMatchObject({ login: "carol" });
    expect(await fx.resolve(withToken(token.token))).toMatchObject({ login: "carol" });

    // Only the flag: the identity service also deletes the sessions, but the flag alone must suffice.
    await fx.db.user.update({ where: { login: "carol" }, data: { disabledAt: new Date() } });
    expect(await fx.resolve(withCookie(cookie))).toBeNull();
    expect(await fx.resolve(withToken(token.token))).toBeNull();

    const again = await signIn(fx.handler, "carol", "carol's password");
    expect(again.status).toBe(403);
    expect(again.headers.getSetCookie()).toEqual([]);
  });
});
