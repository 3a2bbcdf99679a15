/**
 * `peloton volume list`: the real binary against the real API over HTTP on
 * the scratch database. No scheduler runs here, so the volumes are pinned
 * the way the placement loop pins them.
 */
import { join } from "node:path";
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { type ServedApi, serveApi } from "@peloton/test-support/api/http-server.ts";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectOneLineError, runCli } from "./support/run-cli.ts";

const ctx = testContext(testActor({ login: "cli-user", displayName: "CLI user" }));
let api: ServedApi;

beforeAll(async () => {
  api = await serveApi(() => ctx);
});
beforeEach(async () => {
  await resetDatabase();
  await leafPool(ctx.gateway, "db");
});
afterAll(async () => {
  await api?.close();
  await ctx.close();
});

const peloton = (...args: string[]) => runCli(api.url, ...args);

/** A two-instance stateful job, its volumes pinned on two hosts, instance 0's created. */
async function statefulJob(): Promise<string> {
  const run = await peloton(
    "job",
    "create",
    "/db",
    join(import.meta.dirname, "fixtures", "job-stateful.yaml"),
  );
  expect(run.stderr).toBe("");
  const jobId = run.stdout.split(" ")[1]!;
  const pins = [];
  for (const instanceId of [0, 1]) {
    const task = await ctx.gateway.taskReads.get(jobId, instanceId);
    pins.push({
      id: `${jobId}-${instanceId}`,
      jobId,
      instanceId,
      taskId: task!.id,
      hostname: `db-${instanceId}.test`,
      agentId: `agent-${instanceId}`,
      sizeMb: 1536,
      containerPath: "/var/lib/ledger",
    });
  }
  await ctx.gateway.volumes.pin(pins);
  await ctx.gateway.volumes.markCreated([`${jobId}-0`]);
  return jobId;
}

describe("peloton volume list", () => {
  it("lists each instance's volume with its host, size, path and state", async () => {
    const jobId = await statefulJob();
    const list = await peloton("volume", "list");
    expect(list.code).toBe(0);
    expect(list.stderr).toBe("");
    const [header, ...rows] = list.stdout.trimEnd().split("\n");
    expect(header!.split(/\s{2,}/)).toEqual([
      "Volume ID",
      "Job",
      "Instance",
      "Host",
      "Size",
      "Container Path",
      "State",
    ]);
    expect(rows.map((r) => r.split(/\s{2,}/))).toEqual([
      [`${jobId}-0`, "cli_ledger", "0", "db-0.test", "1.5 GB", "/var/lib/ledger", "CREATED"],
      [`${jobId}-1`, "cli_ledger", "1", "db-1.test", "1.5 GB", "/var/lib/ledger", "INITIALIZED"],
    ]);
  });

  it("filters by host, state and job; says when nothing matches", async () => {
    const jobId = await statefulJob();
    const onHost = await peloton("volume", "list", "--host", "db-1.test", "--json");
    expect(JSON.parse(onHost.stdout).map((v: { instanceId: number }) => v.instanceId)).toEqual([1]);
    const created = await peloton("volume", "list", "--state", "created", "--job", jobId, "--json");
    expect(JSON.parse(created.stdout).map((v: { id: string }) => v.id)).toEqual([`${jobId}-0`]);
    const deleted = await peloton("volume", "list", "--state", "DELETED");
    expect(deleted.stdout).toBe("No volumes match.\n");
  });

  it("refuses an unknown state or sort, naming the option's field", async () => {
    expectOneLineError(
      await peloton("volume", "list", "--state", "GONE"),
      /--state: one of .* \(got "GONE"\)/,
    );
    expectOneLineError(await peloton("volume", "list", "--sort", "color"), /sort/);
  });
});
