/**
 * `peloton login | logout | whoami | token | user | team`: the real binary
 * against the API over HTTP, each request's actor resolved from its Bearer
 * token (or, for login, the session the sign-in made) on the scratch
 * database, so that revoking a token really locks it out.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { hashPassword } from "@peloton/api";
import { createIdentityService } from "@peloton/scheduler";
import { testContext } from "@peloton/test-support/api/context.ts";
import type { ServedApi } from "@peloton/test-support/api/http-server.ts";
import { serveApiWithIdentity } from "@peloton/test-support/api/identity-server.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, expectOneLineError, type Run } from "./support/run-cli.ts";

const ctx = testContext();
const PASSWORD = "admin password 1234";
let api: ServedApi;
const config = mkdtempSync(join(tmpdir(), "peloton-cli-identity-"));
const credentials = join(config, "peloton", "credentials.json");

beforeAll(async () => {
  await resetDatabase();
  const identity = createIdentityService(ctx.gateway);
  await identity.users.create(
    { login: "system", via: "system" },
    {
      login: "admin",
      displayName: "Administrator",
      role: "ADMIN",
      teams: [],
      hostMaintenance: true,
      passwordHash: await hashPassword(PASSWORD),
    },
  );
  const { actor: _none, ...base } = ctx;
  api = await serveApiWithIdentity(() => base);
});
afterAll(async () => {
  await api?.close();
  await ctx.close();
});

/** `peloton ...args` with its own config folder, `env` added, `input` on stdin. */
function peloton(args: string[], opts: { env?: Record<string, string>; input?: string } = {}) {
  return new Promise<Run>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {
        ...process.env,
        PELOTON_URL: api.url,
        XDG_CONFIG_HOME: config,
        PELOTON_TOKEN: "",
        ...opts.env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.stdin.end(opts.input ?? "");
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

describe("peloton login, whoami, token", { timeout: 180_000 }, () => {
  let ciToken = "";

  it("says how to sign in when no token is there", async () => {
    expectOneLineError(await peloton(["whoami"]), /not signed in: run `peloton login --user NAME`/);
  });

  it("refuses a wrong password", async () => {
    const run = await peloton(["login", "--user", "admin", "--password-stdin"], {
      input: "wrong password!!\n",
    });
    expectOneLineError(run, /sign-in refused/);
    expect(existsSync(credentials)).toBe(false);
  });

  it("logs in and keeps the token readable by its owner only", async () => {
    const run = await peloton(["login", "--user", "admin", "--password-stdin"], {
      input: `${PASSWORD}\n`,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^Signed in to http:\/\/127\.0\.0\.1:\d+ as admin \(token cli-/);
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(credentials)).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(credentials, "utf8"));
    expect(stored).toMatchObject({ server: api.url, login: "admin" });
    expect(stored.token).toMatch(/^pt_[A-Za-z0-9_-]{43}$/);
    const who = await peloton(["whoami"]);
    expect(who.stdout).toMatch(
      /^admin \(Administrator\): ADMIN, host maintenance; no team; via token:cli-/,
    );
  });

  it("creates a token once, lists it, and PELOTON_TOKEN overrides the stored one", async () => {
    const made = await peloton(["token", "create", "ci", "--expires-in-days", "30"]);
    expect(made.code).toBe(0);
    ciToken = made.stdout.trim();
    expect(ciToken).toMatch(/^pt_/);
    const list = await peloton(["token", "list"]);
    expect(list.stdout).toMatch(/^Name\s+Prefix/);
    expect(list.stdout).toContain(`ci     ${ciToken.slice(0, 8)}`.replace(/ +/, " ").split(" ")[0]);
    expect(list.stdout).not.toContain(ciToken);
    const who = await peloton(["whoami"], { env: { PELOTON_TOKEN: ciToken } });
    expect(who.stdout).toContain("via token:ci");
    const dup = await peloton(["token", "create", "ci"]);
    expectOneLineError(dup, /a token "ci" already exists/);
    expectOneLineError(
      await peloton(["token", "create", "x", "--expires-in-days", "0"]),
      /expiresInDays: a token lives at least 1 day/,
    );
  });

  it("revokes a token: it is refused at the next request", async () => {
    expect((await peloton(["token", "revoke", "ci"])).stdout.trim()).toBe("token ci revoked");
    const who = await peloton(["whoami"], { env: { PELOTON_TOKEN: ciToken } });
    expectOneLineError(who, /the API refused your token/);
    expectOneLineError(await peloton(["token", "revoke", "ci"]), /no live token "ci"/);
  });
});

describe("peloton user, team", () => {
  it("creates teams and users, changes members, disables and enables", async () => {
    expect((await peloton(["team", "create", "ml", "-d", "models"])).stdout.trim()).toBe(
      "team ml created",
    );
    expectOneLineError(await peloton(["team", "create", "ml"]), /a team "ml" already exists/);
    const created = await peloton(
      ["user", "create", "bob", "-n", "Bob", "-r", "operator", "-t", "ml", "--password-stdin"],
      { input: "bob's long password\n" },
    );
    expect(created.stdout.trim()).toBe("created bob (Bob): OPERATOR; ml");
    expectOneLineError(
      await peloton(["user", "create", "Bob!", "-n", "B", "--password-stdin"], {
        input: "long enough password\n",
      }),
      /login: a login is lower-case/,
    );
    expectOneLineError(
      await peloton(["user", "create", "carol", "-n", "C", "--password-stdin"], {
        input: "short\n",
      }),
      /password: a password has at least 12 characters/,
    );

    const users = await peloton(["user", "list"]);
    expect(users.stdout).toMatch(/bob\s+Bob\s+OPERATOR\s+ml\s+-\s+active/);
    expect((await peloton(["team", "remove-member", "ml", "bob"])).stdout.trim()).toBe(
      "team ml: no members",
    );
    expect((await peloton(["team", "add-member", "ml", "bob"])).stdout.trim()).toBe("team ml: bob");
    expect((await peloton(["team", "list"])).stdout).toMatch(/ml\s+bob\s+models/);
    const updated = await peloton(["user", "update", "bob", "-r", "team_lead", "-t", ""]);
    expect(updated.stdout.trim()).toBe("updated bob (Bob): TEAM_LEAD; no team");

    expect((await peloton(["user", "disable", "bob"])).stdout.trim()).toBe("bob is disabled");
    expect((await peloton(["user", "enable", "bob"])).stdout.trim()).toBe("bob is enabled");
    expectOneLineError(await peloton(["user", "disable", "admin"]), /you cannot disable yourself/);
    expectOneLineError(await peloton(["team", "add-member", "nope", "bob"]), /no team "nope"/);
    expect((await peloton(["team", "delete", "ml"])).stdout.trim()).toBe("team ml deleted");

    const audit = await ctx.gateway.audit.list({ limit: 100, action: "user." });
    expect(audit.items.map((r) => r.action)).toContain("user.disable");
    expect(JSON.stringify(audit.items)).not.toContain("long password");
    // Sixteen runs of the binary, a few seconds each on a busy machine.
  }, 240_000);
});

describe("peloton logout", { timeout: 180_000 }, () => {
  it("revokes the stored token and deletes the file", async () => {
    const stored = JSON.parse(readFileSync(credentials, "utf8")) as { token: string };
    expect((await peloton(["logout"])).stdout).toMatch(
      /^Signed out of .* \(token cli-.* revoked\)/,
    );
    expect(existsSync(credentials)).toBe(false);
    const who = await peloton(["whoami"], { env: { PELOTON_TOKEN: stored.token } });
    expectOneLineError(who, /the API refused your token/);
  });
});
