/**
 * The identity service on the scratch database: each write with its audit
 * row, disabling deletes every session in the same transaction, and the
 * refusals (duplicates, unknown names, yourself, the last admin) change
 * nothing.
 */
import { createIdentityService } from "@peloton/scheduler";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";

const gateway = testGateway();
const identity = createIdentityService(gateway);
afterAll(() => gateway.close());

const root = { login: "root", via: "session" };
const person = (login: string, role: "ADMIN" | "VIEWER" = "VIEWER", teams: string[] = []) => ({
  login,
  displayName: login,
  role,
  teams,
  hostMaintenance: false,
  passwordHash: "scrypt-hash-of-something",
});

beforeEach(async () => {
  await resetDatabase();
  expect((await identity.users.create(root, person("root", "ADMIN"))).ok).toBe(true);
});

describe("identity service", () => {
  it("creates a user with the hash as a credential account and an audit row without it", async () => {
    await identity.teams.create(root, "ml");
    const made = await identity.users.create(root, person("ada", "VIEWER", ["ml"]));
    expect(made).toMatchObject({ ok: true, value: { login: "ada", teams: ["ml"] } });
    const ada = await gateway.identity.userByLogin("ada");
    expect(await gateway.identity.passwordHash(ada?.id ?? "")).toBe("scrypt-hash-of-something");
    const audit = await gateway.audit.list({ limit: 10, action: "user.create" });
    expect(audit.items[0]).toMatchObject({ actor: "root", targetId: "ada" });
    expect(JSON.stringify(audit.items)).not.toContain("scrypt-hash");
    const [row] = await directSql<{ via: string }>(
      "SELECT via FROM audit_log WHERE action = 'user.create' AND target_id = 'ada'",
    );
    expect(row?.via).toBe("session");
  });

  it("refuses duplicates and unknown names, changing nothing", async () => {
    expect(await identity.users.create(root, person("root"))).toMatchObject({
      ok: false,
      failure: { kind: "duplicate", field: "login" },
    });
    expect(await identity.users.create(root, person("bo", "VIEWER", ["nope"]))).toMatchObject({
      ok: false,
      failure: { kind: "not_found", field: "teams", message: 'no team "nope"' },
    });
    expect(await gateway.identity.userByLogin("bo")).toBeNull();
    expect(await identity.teams.addMember(root, "nope", "root")).toMatchObject({ ok: false });
    expect(await identity.users.disable(root, "ghost")).toMatchObject({
      ok: false,
      failure: { kind: "not_found" },
    });
  });

  it("disabling deletes every session of the user in the same transaction", async () => {
    await identity.users.create(root, person("ada"));
    const ada = await gateway.identity.userByLogin("ada");
    for (const n of [1, 2])
      await directSql(
        "INSERT INTO auth_sessions (id, token, user_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')",
        [`s${n}`, `t${n}`, ada?.id],
      );
    const result = await identity.users.disable(root, "ada");
    expect(result).toMatchObject({ ok: true, value: { login: "ada" } });
    expect(result.ok && result.value.disabledAt).toBeInstanceOf(Date);
    expect(await directSql("SELECT id FROM auth_sessions")).toEqual([]);
    expect((await identity.users.enable(root, "ada")).ok).toBe(true);
    expect((await gateway.identity.userByLogin("ada"))?.disabledAt).toBeNull();
  });

  it("keeps an admin: not yourself, not the last one", async () => {
    expect(await identity.users.disable(root, "root")).toMatchObject({
      ok: false,
      failure: { message: "you cannot disable yourself" },
    });
    expect(await identity.users.update(root, { login: "root", role: "VIEWER" })).toMatchObject({
      ok: false,
      failure: { kind: "conflict", message: "cannot demote root: they are the last admin" },
    });
    await identity.users.create(root, person("eve", "ADMIN"));
    // Two admins disabling each other at once: one of them stays.
    const both = await Promise.all([
      identity.users.disable(root, "eve"),
      identity.users.disable({ login: "eve", via: "session" }, "root"),
    ]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(await gateway.identity.activeAdminCount()).toBe(1);
  });

  it("tokens: unique live names, revoked by name, audited without the hash", async () => {
    const rootUser = await gateway.identity.userByLogin("root");
    const token = {
      userId: rootUser?.id ?? "",
      name: "ci",
      tokenHash: "a".repeat(64),
      prefix: "pt_abcde",
      expiresAt: null,
    };
    expect((await identity.tokens.create(root, token)).ok).toBe(true);
    expect(
      await identity.tokens.create(root, { ...token, tokenHash: "b".repeat(64) }),
    ).toMatchObject({ ok: false, failure: { kind: "duplicate", field: "name" } });
    expect((await identity.tokens.revoke(root, token.userId, "ci")).ok).toBe(true);
    expect(await identity.tokens.revoke(root, token.userId, "ci")).toMatchObject({
      ok: false,
      failure: { kind: "not_found" },
    });
    // A revoked name may be used again.
    expect((await identity.tokens.create(root, { ...token, tokenHash: "c".repeat(64) })).ok).toBe(
      true,
    );
    expect((await identity.tokens.list(token.userId)).map((t) => t.revokedAt === null)).toEqual([
      true,
      false,
    ]);
    // Two creations of one name at once: they take turns on the user's row, one wins.
    const racing = await Promise.all(
      ["d", "e"].map((c) =>
        identity.tokens.create(root, { ...token, name: "race", tokenHash: c.repeat(64) }),
      ),
    );
    expect(racing.filter((r) => r.ok)).toHaveLength(1);
    const audit = await gateway.audit.list({ limit: 10, action: "token." });
    expect(audit.items.map((r) => r.targetId)).toContain("root/ci");
    expect(JSON.stringify(audit.items)).not.toContain("aaaa");
  });
});
