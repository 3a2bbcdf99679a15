/**
 * `peloton task list` says why each waiting task waits: the real binary and
 * API with the scheduler running on mesos-sim. READY lives in the leader's
 * memory, so what the table shows of a waiting task is its row's reason and
 * message, which admission writes (README: which states are stored).
 */
import { join } from "node:path";
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { type ServedApi, serveApi } from "@peloton/test-support/api/http-server.ts";
import {
  agent,
  leafPool,
  ROOMY,
  startSystem,
  statesOf,
} from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./support/run-cli.ts";

const ctx = testContext(testActor({ login: "cli-user", displayName: "CLI user" }));
let api: ServedApi;

beforeAll(async () => {
  await resetDatabase();
  api = await serveApi(() => ctx);
});
afterAll(async () => {
  await api?.close();
  await ctx.close();
});

const peloton = (...args: string[]) => runCli(api.url, ...args);

describe("peloton task list of a job that waits", () => {
  it("gives each waiting task its reason and place in line, and the running ones none", async () => {
    // One core for three half-core tasks: two run, the third waits for its pool's entitlement.
    await leafPool(ctx.gateway, "small", {
      ...ROOMY,
      cpu: { reservation: 1, limit: 1, share: 1 },
    });
    await startSystem([agent("wait-1.test", { simulateTasks: true })]);
    const created = await peloton(
      "job",
      "create",
      "/small",
      join(import.meta.dirname, "fixtures", "job-batch.yaml"),
    );
    expect(created.stderr).toBe("");
    const id = created.stdout.split(" ")[1]!;
    await expect
      .poll(async () => (await statesOf(id)).sort(), { timeout: 20_000, interval: 200 })
      .toEqual(["PENDING", "RUNNING", "RUNNING"]);

    // The table the poll saw last: the waiting row and the running ones are read together.
    let rows: string[] = [];
    const waitingRow = () => rows.find((row) => /\sPENDING\s/.test(row)) ?? "";
    await expect
      .poll(
        async () => {
          rows = (await peloton("task", "list", id)).stdout.trimEnd().split("\n").slice(1);
          return waitingRow();
        },
        { timeout: 10_000, interval: 200 },
      )
      .toMatch(/in pool \/small's pending queue/);
    expect(waitingRow()).toMatch(/pool \/small is at its cpu entitlement/);
    const running = rows.filter((row) => /\sRUNNING\s/.test(row));
    expect(running).toHaveLength(2);
    for (const row of running) {
      expect(row).toMatch(/\swait-1\.test\s/);
      expect(row).not.toMatch(/pending queue/);
    }
  });
});
