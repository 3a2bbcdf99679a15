/**
 * The real `peloton` binary against the real API over HTTP (the same router
 * and error formatter as the console's route) on the scratch database.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureRootPool } from "@peloton/scheduler";
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { type ServedApi, serveApi } from "@peloton/test-support/api/http-server.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { expectOneLineError, runCli } from "./support/run-cli.ts";

const fixture = (name: string) => join(import.meta.dirname, "fixtures", name);

const ctx = testContext(testActor({ login: "cli-user", displayName: "CLI user" }));
let api: ServedApi;

beforeAll(async () => {
  await resetDatabase();
  await ensureRootPool(ctx.gateway);
  await ctx.gateway.hosts.upsert({
    hostname: "h1",
    agentId: "a1",
    attributes: {},
    cpu: 64,
    memMb: 65536,
    diskMb: 100000,
    gpu: 0,
    ports: [],
    state: "UP",
  });
  api = await serveApi(() => ctx);
});
afterAll(async () => {
  await api?.close();
  await ctx.close();
});

const peloton = (...args: string[]) => runCli(api.url, ...args);

describe("peloton respool", () => {
  it("creates a pool from Peloton's respool YAML and finds it with lookup", async () => {
    const created = await peloton("respool", "create", "/team6", fixture("team-respool.yaml"));
    expect(created.stderr).toBe("");
    expect(created.stdout).toMatch(/^Resource Pool [0-9a-f-]{36} created at \/team6\n$/);
    const id = created.stdout.split(" ")[2];

    const lookup = await peloton("respool", "lookup", "/team6");
    expect(lookup.code).toBe(0);
    const [header, row, , kindsHeader, cpu, memory] = lookup.stdout.split("\n");
    expect(header).toMatch(/^ID\s+PATH\s+OWNING TEAM\s+PARENT/);
    expect(row).toMatch(new RegExp(`^${id}\\s+/team6\\s+team6\\s+/\\s+0\\s+0\\s+1$`));
    expect(kindsHeader).toMatch(/^KIND\s+RESERVATION\s+LIMIT\s+SHARE\s+TYPE\s+ENTITLEMENT/);
    // Alone under the root with no demand, it is entitled to what nobody asked for, up to its limit.
    expect(cpu).toMatch(/^cpu\s+10\s+40\s+1\s+ELASTIC\s+40\s+0\s+0$/);
    expect(memory).toMatch(/^memory\s+1024\s+4096\s+2\s+ELASTIC\s+4096\s+0\s+0$/);

    const json = JSON.parse(
      (await peloton("respool", "lookup", "/team6", "--format", "json")).stdout,
    );
    expect(json).toEqual([
      expect.objectContaining({
        id: { value: id },
        path: { value: "/team6" },
        config: expect.objectContaining({
          name: "team6",
          owningTeam: "team6",
          ldapGroups: ["money", "team6"],
          policy: 1,
          controllerLimit: { maxPercent: 10 },
          slackLimit: { maxPercent: 30 },
        }),
      }),
    ]);
  });

  it("dumps every pool as Peloton's ResourcePoolInfo, YAML with Go's lowercase keys or JSON", async () => {
    const yamlRun = await peloton("respool", "dump");
    expect(yamlRun.code).toBe(0);
    const pools = parse(yamlRun.stdout) as Record<string, unknown>[];
    const team = pools.find((p) => (p.path as { value: string }).value === "/team6")!;
    expect(team.config).toMatchObject({
      name: "team6",
      owningteam: "team6",
      ldapgroups: ["money", "team6"],
      controllerlimit: { maxpercent: 10 },
      slacklimit: { maxpercent: 30 },
    });
    expect((team.config as { resources: unknown[] }).resources[0]).toEqual({
      kind: "cpu",
      reservation: 10,
      limit: 40,
      share: 1,
      type: 1,
    });
    expect(team.usages).toContainEqual({ kind: "cpu", allocation: 0, slack: 0 });
    const json = JSON.parse((await peloton("respool", "dump", "--format", "json")).stdout);
    expect(json.map((p: { path: { value: string } }) => p.path.value)).toEqual(["/team6"]);
  });

  it("updates the pool from a camelCase file with enum names, recording the CLI's actor", async () => {
    const run = await peloton(
      "respool",
      "update",
      "/team6",
      fixture("team-respool-update.yaml"),
      "--version",
      "1",
    );
    expect(run).toMatchObject({ code: 0, stdout: "Resource Pool /team6 updated\n" });
    const lookup = await peloton("respool", "lookup", "/team6");
    expect(lookup.stdout).toMatch(/\ncpu\s+12\s+40\s+1\s+STATIC\s/);
    const history = await ctx.gateway.poolHistory.list("/team6", { limit: 1 });
    expect(history.items[0]).toMatchObject({ action: "UPDATE", actor: "cli-user", version: 2 });
  });

  it("lookup and dump print the version they read", async () => {
    const looked = parse((await peloton("respool", "lookup", "/team6", "--format", "yaml")).stdout);
    expect(looked).toEqual([expect.objectContaining({ version: 2 })]);
    const dumped = JSON.parse((await peloton("respool", "dump", "--format", "json")).stdout);
    expect(dumped).toEqual([expect.objectContaining({ version: 2 })]);
  });

  it("refuses an update made from a stale lookup, and --force writes over it", async () => {
    // Alice saves the pool as lookup prints it (version 2) and edits her copy.
    const dir = mkdtempSync(join(tmpdir(), "respool-"));
    const aliceFile = join(dir, "team6.yaml");
    const saved = (await peloton("respool", "lookup", "/team6", "--format", "yaml")).stdout;
    writeFileSync(
      aliceFile,
      saved.replace("description: Team 6's batch pool", "description: alice"),
    );
    expect(saved).toContain("version: 2");
    // Meanwhile Bob changes the pool (version 3).
    const bob = await peloton(
      "respool",
      "update",
      "/team6",
      fixture("team-respool-update.yaml"),
      "--version",
      "2",
    );
    expect(bob.code).toBe(0);
    // Alice's write would silently undo Bob's: refused, with the versions and the way out.
    expectOneLineError(
      await peloton("respool", "update", "/team6", aliceFile),
      "/team6 was changed since version 2 (now 3): run `peloton respool lookup /team6 --format yaml` and edit again, or pass --force",
    );
    expect((await ctx.gateway.pools.getByPath("/team6"))?.description).toBe("Team 6's batch pool");
    // --version names the base instead of the file: still stale.
    expectOneLineError(
      await peloton("respool", "update", "/team6", aliceFile, "--version", "1"),
      "/team6 was changed since version 1 (now 3)",
    );
    // --force: Peloton's plain update, whatever the version.
    expect(await peloton("respool", "update", "/team6", aliceFile, "--force")).toMatchObject({
      code: 0,
      stdout: "Resource Pool /team6 updated\n",
    });
    const after = await ctx.gateway.pools.getByPath("/team6");
    expect(after).toMatchObject({ description: "alice", version: 4 });
  });

  it("refuses an update whose file names no version, saying how to give one", async () => {
    expectOneLineError(
      await peloton("respool", "update", "/team6", fixture("team-respool-update.yaml")),
      /does not say which version of \/team6 it was made from: .*--version N, or pass --force/,
    );
  });

  it("reads a plain config's own `version:` and keeps its other lines' numbers", async () => {
    const dir = mkdtempSync(join(tmpdir(), "respool-"));
    const file = join(dir, "plain.yaml");
    writeFileSync(file, "version: 4\nname: team6\nresources:\n  - { kind: cpu, limitt: 1 }\n");
    expectOneLineError(
      await peloton("respool", "update", "/team6", file),
      /plain\.yaml: resources\[0\]\.limitt \(line 4\): unknown field "limitt"/,
    );
  });

  it("refuses a file with an unknown field, naming the field and its line", async () => {
    expectOneLineError(
      await peloton("respool", "create", "/typo", fixture("unknown-field.yaml")),
      /unknown-field\.yaml: resources\[0\]\.limitt \(line 5\): unknown field "limitt"/,
    );
  });

  it("refuses a pool that breaks a rule with the rule's numbers, and a missing file", async () => {
    expectOneLineError(
      await peloton("respool", "create", "/team6/child", fixture("too-big-child.yaml")),
      "/team6/child cpu: reservation 20 exceeds the parent /team6's reservation 12",
    );
    expectOneLineError(
      await peloton("respool", "create", "/x", fixture("nope.yaml")),
      /unable to open file .*nope\.yaml/,
    );
    expectOneLineError(
      await peloton("respool", "create", "/other", fixture("team-respool.yaml")),
      `the file names the pool "team6" but the path ends in "other"`,
    );
  });

  it("deletes the pool, after which lookup says there is no such pool", async () => {
    expect(await peloton("respool", "delete", "/team6")).toMatchObject({
      code: 0,
      stdout: "Resource Pool /team6 is deleted\n",
    });
    expectOneLineError(await peloton("respool", "lookup", "/team6"), "/team6: no such pool");
  });

  it("says so in one line when the API cannot be reached", async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const { port } = probe.address() as AddressInfo;
    await new Promise((r) => probe.close(r));
    const url = `http://127.0.0.1:${port}`;
    const run = await runCli(url, "respool", "dump");
    expectOneLineError(run, `cannot reach the Peloton API at ${url} (connection refused)`);
  });
});
