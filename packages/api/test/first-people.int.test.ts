/**
 * The first start on the scratch database: an empty users table gets the
 * admin (and, with demo data, the demo teams and users) once; a second start
 * does nothing; PELOTON_ADMIN_PASSWORD is the admin's password.
 */
import { createIdentityService, DEMO_POOLS } from "@peloton/scheduler";
import { resetDatabase, testGateway } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { verifyPassword } from "../src/auth/passwords.ts";
import { ensureFirstPeople } from "../src/first-start/index.ts";

const gateway = testGateway();
const identity = createIdentityService(gateway);
afterAll(() => gateway.close());
beforeEach(() => resetDatabase());

async function passwordOf(login: string): Promise<string> {
  const user = await gateway.identity.userByLogin(login);
  const hash = user && (await gateway.identity.passwordHash(user.id));
  if (!hash) throw new Error(`${login} has no password`);
  return hash;
}

describe("ensureFirstPeople", () => {
  it("creates the admin and the demo people once, printing their passwords", async () => {
    const printed: string[] = [];
    const print = (text: string) => printed.push(text);
    const people = await ensureFirstPeople({ gateway, identity, demo: true, print });
    expect(people.map((p) => [p.login, p.role])).toEqual([
      ["admin", "ADMIN"],
      ["lead", "TEAM_LEAD"],
      ["operator", "OPERATOR"],
      ["viewer", "VIEWER"],
    ]);
    const admin = await gateway.identity.userByLogin("admin");
    expect(admin).toMatchObject({ role: "ADMIN", teams: [] });
    expect((await gateway.identity.userByLogin("lead"))?.teams).toEqual(["infra"]);
    const teams = (await gateway.identity.listTeams()).map((t) => t.name);
    expect(teams).toEqual([...new Set(DEMO_POOLS.map((p) => p.owningTeam))].sort());

    // Printed once, in a box; each printed password signs its user in.
    expect(printed).toHaveLength(1);
    const box = printed[0] ?? "";
    expect(box.startsWith("┌")).toBe(true);
    for (const login of ["admin", "lead", "operator", "viewer"]) {
      const line = box.split("\n").find((l) => l.includes(` ${login} `)) ?? "";
      const password = line.split(/\s+/)[3] ?? "";
      expect(password.length).toBeGreaterThanOrEqual(20);
      expect(await verifyPassword(await passwordOf(login), password)).toBe(true);
    }
    // The audit log names the system, never a password.
    const audit = await gateway.audit.list({ limit: 50, action: "user.create" });
    expect(audit.items.map((r) => r.actor)).toEqual(["system", "system", "system", "system"]);
    expect(JSON.stringify(audit.items)).not.toContain(box.split("\n")[3]?.split(/\s+/)[3]);

    const again = await ensureFirstPeople({ gateway, identity, demo: true, print });
    expect(again).toEqual([]);
    expect(printed).toHaveLength(1);
    expect(await gateway.identity.userCount()).toBe(4);
  });

  it("honours PELOTON_ADMIN_PASSWORD and does not print it; no demo people without demo data", async () => {
    const printed: string[] = [];
    const people = await ensureFirstPeople({
      gateway,
      identity,
      demo: false,
      adminPassword: "correct horse battery staple",
      print: (t) => printed.push(t),
    });
    expect(people.map((p) => p.login)).toEqual(["admin"]);
    expect(await verifyPassword(await passwordOf("admin"), "correct horse battery staple")).toBe(
      true,
    );
    expect(printed.join("\n")).not.toContain("correct horse");
    expect(printed.join("\n")).toContain("(PELOTON_ADMIN_PASSWORD)");
    expect(await gateway.identity.listTeams()).toEqual([]);
  });

  it("refuses a PELOTON_ADMIN_PASSWORD shorter than 12 characters", async () => {
    await expect(
      ensureFirstPeople({
        gateway,
        identity,
        demo: false,
        adminPassword: "short",
        print: () => {},
      }),
    ).rejects.toThrow(/PELOTON_ADMIN_PASSWORD/);
    expect(await gateway.identity.userCount()).toBe(0);
  });
});
