/**
 * `peloton host maintenance start|complete` and `peloton host query`: the
 * real binary against the real API over HTTP on the scratch database (no
 * scheduler: the maintenance loop's steps are not taken here).
 */
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { type ServedApi, serveApi } from "@peloton/test-support/api/http-server.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectOneLineError, runCli } from "./support/run-cli.ts";

const ctx = testContext(testActor({ login: "ops", displayName: "Ops", role: "ADMIN" }));
let api: ServedApi;

beforeAll(async () => {
  api = await serveApi(() => ctx);
});
beforeEach(async () => {
  await resetDatabase();
  await ctx.gateway.hosts.recordRegistered(
    ["node-a.test", "node-b.test"].map((hostname, i) => ({
      hostname,
      agentId: `agent-${i}`,
      agentUrl: `http://10.0.0.${i + 1}:5051/slave(1)`,
      attributes: { zone: "a" },
      cpu: 8,
      memMb: 8192,
      diskMb: 10_000,
      gpu: 0,
      ports: [[31000, 32000]],
    })),
  );
});
afterAll(async () => {
  await api?.close();
  await ctx.close();
});

const peloton = (...args: string[]) => runCli(api.url, ...args);

describe("peloton host maintenance and host query", () => {
  it("starts maintenance with a reason, lists it by state, and completes it", async () => {
    const start = await peloton(
      "host",
      "maintenance",
      "start",
      "node-a.test",
      "-r",
      "kernel upgrade",
    );
    expect(start.stderr).toBe("");
    expect(start.stdout).toContain("Host successfully submitted for maintenance: node-a.test");
    expect(start.stdout).toContain("node-a.test is DRAINING");

    const query = await peloton("host", "query", "--states", "DRAINING");
    expect(query.stdout.split("\n")[0]).toMatch(/^Hostname\s+IP\s+State\s+Goal State\s+Reason/);
    expect(query.stdout).toMatch(/node-a\.test\s+10\.0\.0\.1\s+DRAINING\s+DOWN\s+kernel upgrade/);
    expect(query.stdout).not.toContain("node-b.test");

    const complete = await peloton("host", "maintenance", "complete", "node-a.test");
    expect(complete.stdout).toContain(
      "Host successfully submitted for maintenance completion: node-a.test",
    );
    expect(complete.stdout).toContain("node-a.test is DRAINING, going UP");
  });

  it("refuses an unknown host and a bad state, in one line each", async () => {
    expectOneLineError(
      await peloton("host", "maintenance", "start", "ghost.test"),
      /host ghost\.test does not exist/,
    );
    expectOneLineError(await peloton("host", "query", "-s", "SIDEWAYS"), /one of UP, DRAINING/);
    const none = await peloton("host", "query", "-s", "DOWN");
    expect(none.stdout.trim()).toBe("No hosts found");
  });
});
