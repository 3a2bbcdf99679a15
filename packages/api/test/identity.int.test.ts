/**
 * The me, tokens, users and teams routers on the scratch database: admins
 * manage people and teams, anyone their own tokens; refusals are 403 with
 * the policy's sentence and a refused audit row; the token is in the
 * create answer only, and only its hash is stored.
 */
import { createHash } from "node:crypto";
import type { Actor } from "@peloton/api";
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { verifyPassword } from "../src/auth/passwords.ts";
import { createCaller } from "../src/index.ts";

const ctx = testContext();
afterAll(() => ctx.close());

/** A caller acting as the stored user `login`. */
async function as(login: string, via: Actor["via"] = { kind: "session" }) {
  const u = await ctx.gateway.identity.userByLogin(login);
  if (!u) throw new Error(`no ${login}`);
  const actor = testActor({
    userId: u.id,
    login: u.login,
    displayName: u.displayName,
    role: u.role,
    teams: u.teams,
    hostMaintenance: u.hostMaintenance,
    via,
  });
  return createCaller({ ...ctx, actor });
}

beforeEach(async () => {
  await resetDatabase();
  await ctx.scheduler.identity.users.create(
    { login: "system", via: "system" },
    {
      login: "root",
      displayName: "Root",
      role: "ADMIN",
      teams: [],
      hostMaintenance: true,
      passwordHash: null,
    },
  );
});

describe("users and teams", () => {
  it("an admin creates a team and a user whose password signs in", async () => {
    const root = await as("root");
    await root.teams.create({ name: "ml", description: "models" });
    const ada = await root.users.create({
      login: "ada",
      displayName: "Ada",
      role: "OPERATOR",
      teams: ["ml"],
      hostMaintenance: false,
      password: "a long enough password",
    });
    expect(ada).toMatchObject({ login: "ada", role: "OPERATOR", teams: ["ml"], disabledAt: null });
    const hash = await ctx.gateway.identity.passwordHash(ada.id);
    expect(await verifyPassword(hash ?? "", "a long enough password")).toBe(true);
    expect(await root.teams.list()).toEqual([
      { id: expect.any(String), name: "ml", description: "models", members: ["ada"] },
    ]);
    const page = await root.users.list({ limit: 1 });
    expect(page.items.map((u) => u.login)).toEqual(["ada"]);
    const next = await root.users.list({ limit: 1, cursor: page.nextCursor });
    expect(next.items.map((u) => u.login)).toEqual(["root"]);
    await expect(
      root.users.create({ login: "ada", displayName: "A", password: "another long one" }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: 'a user "ada" already exists' });
  });

  it("refuses a non-admin with the policy's sentence and a refused audit row", async () => {
    const root = await as("root");
    await root.users.create({ login: "vic", displayName: "Vic", password: "vics password!" });
    const vic = await as("vic");
    await expect(vic.teams.create({ name: "x" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "only admins may manage teams",
    });
    await expect(vic.users.list({ limit: 10 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const refused = await directSql<{ actor: string; outcome: string }>(
      "SELECT actor, outcome FROM audit_log WHERE outcome = 'refused'",
    );
    expect(refused).toEqual([
      { actor: "vic", outcome: "refused" },
      { actor: "vic", outcome: "refused" },
    ]);
    expect(await vic.teams.list()).toEqual([]);
  });

  it("validates input with the field named", async () => {
    const root = await as("root");
    await expect(
      root.users.create({ login: "Bad Login", displayName: "x", password: "long enough pw" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      root.users.create({ login: "ok", displayName: "x", password: "short" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("tokens and me", () => {
  it("a viewer makes, lists and revokes their own tokens; only the hash is stored", async () => {
    const root = await as("root");
    await root.users.create({ login: "vic", displayName: "Vic", password: "vics password!" });
    const vic = await as("vic");
    const made = await vic.tokens.create({ name: "laptop", expiresInDays: 7 });
    expect(made.token).toMatch(/^pt_[A-Za-z0-9_-]{43}$/);
    expect(made.prefix).toBe(made.token.slice(0, 8));
    const [row] = await directSql<{ token_hash: string }>("SELECT token_hash FROM api_tokens");
    expect(row?.token_hash).toBe(createHash("sha256").update(made.token).digest("hex"));
    const list = await vic.tokens.list({});
    expect(list).toEqual([expect.objectContaining({ name: "laptop", revokedAt: null })]);
    expect(JSON.stringify(list)).not.toContain(made.token);
    expect(await vic.tokens.revoke({ name: "laptop" })).toEqual({ revoked: true });
    // Someone else's tokens: admins only.
    const rootUser = await ctx.gateway.identity.userByLogin("root");
    await expect(vic.tokens.list({ userId: rootUser?.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "only admins may manage another person's tokens",
    });
    const vicUser = await ctx.gateway.identity.userByLogin("vic");
    expect(await root.tokens.list({ userId: vicUser?.id })).toHaveLength(1);
  });

  it("me.get answers the actor and how it came", async () => {
    const me = await (await as("root", { kind: "token", tokenId: "t", tokenName: "ci" })).me.get();
    expect(me).toMatchObject({ login: "root", role: "ADMIN", teams: [], via: "token:ci" });
    await expect(createCaller({ ...ctx, actor: null }).me.get()).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});
