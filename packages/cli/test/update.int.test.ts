/**
 * `peloton update …` and `peloton job restart --batch-size`: the real binary
 * against the real API over HTTP on the scratch database (docs/updates.md).
 * No scheduler loop runs here, so an update stays where the API put it
 * (INITIALIZED, or PAUSED when started paused) and every verb acts on that.
 */
import { join } from "node:path";
import { createCaller } from "@peloton/api";
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { type ServedApi, serveApi } from "@peloton/test-support/api/http-server.ts";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectOneLineError, runCli } from "./support/run-cli.ts";

const fixture = (name: string) => join(import.meta.dirname, "fixtures", name);
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

const ctx = testContext(testActor({ login: "cli-user", displayName: "CLI user" }));
const caller = createCaller(ctx);
let api: ServedApi;

beforeAll(async () => {
  api = await serveApi(() => ctx);
});
beforeEach(async () => {
  await resetDatabase();
  await leafPool(ctx.gateway, "services");
  await leafPool(ctx.gateway, "batch");
});
afterAll(async () => {
  await api?.close();
  await ctx.close();
});

const peloton = (...args: string[]) => runCli(api.url, ...args);
/** Tests that run the binary many times: each run starts a Node process. */
const MANY_RUNS = { timeout: 180_000 };

async function createService(): Promise<string> {
  const run = await peloton("job", "create", "/services", fixture("job-service.yaml"));
  expect(run.stderr).toBe("");
  return run.stdout.split(" ")[1]!;
}

/** `peloton update create <job> job-service-v2.yaml 2 /services <flags>`. */
function updateCreate(jobId: string, ...flags: string[]) {
  return peloton(
    "update",
    "create",
    jobId,
    fixture("job-service-v2.yaml"),
    "2",
    "/services",
    ...flags,
  );
}

async function createUpdate(jobId: string, ...flags: string[]): Promise<string> {
  const run = await updateCreate(jobId, ...flags);
  expect(run.stderr).toBe("");
  const overrides = flags.includes("-o") ? `; update ${UUID} aborted \\(overridden\\)` : "";
  expect(run.stdout).toMatch(new RegExp(`^Job update ${UUID} created${overrides}\\n$`));
  return run.stdout.split(" ")[2]!;
}

const rowsOf = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((l) => l.split(/\s{2,}/));

describe("peloton update create, get and list", () => {
  it(
    "creates an update with Peloton's flags and prints its id; get and list show it in Peloton's columns",
    MANY_RUNS,
    async () => {
      const jobId = await createService();
      const id = await createUpdate(
        jobId,
        "--maxattempts",
        "3",
        "--maxfailureInstances",
        "1",
        "--rollbackOnFailure",
        "--in-place",
      );
      const stored = await caller.updates.get({ id });
      expect(stored).toMatchObject({
        jobId,
        kind: "UPDATE",
        fromVersion: 1,
        toVersion: 2,
        actor: "cli-user",
      });
      expect(stored.options).toMatchObject({
        batchSize: 2,
        maxInstanceAttempts: 3,
        maxFailureInstances: 1,
        rollbackOnFailure: true,
        inPlace: true,
        startPaused: false,
      });

      const [header, row] = rowsOf((await peloton("update", "get", id)).stdout);
      expect(header).toEqual([
        "Update-ID",
        "State",
        "NumberTasksCompleted",
        "NumberTasksFailed",
        "NumberTasksRemaining",
        "Kind",
        "Config Version",
        "Started By",
        "Created At",
      ]);
      expect(row!.slice(0, 2)).toEqual([id, stored.state]);
      expect(row!.slice(2, 5)).toEqual([
        String(stored.numTasksDone),
        String(stored.numTasksFailed),
        String(stored.numTasksRemaining),
      ]);
      expect(row!.slice(5, 8)).toEqual(["UPDATE", "1 -> 2", "cli-user"]);

      const listed = rowsOf((await peloton("update", "list", jobId)).stdout);
      expect(listed.slice(1).map((r) => r[0])).toEqual([id]);
      const json = JSON.parse((await peloton("update", "get", id, "--json")).stdout);
      expect(json.id).toBe(id);
    },
  );

  it(
    "refuses a second update while one is active, and -o overrides it (the first ends ABORTED)",
    MANY_RUNS,
    async () => {
      const jobId = await createService();
      const first = await createUpdate(jobId, "--start-paused");
      const refused = await peloton(
        "update",
        "create",
        jobId,
        fixture("job-service-v2.yaml"),
        "1",
        "/services",
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^peloton: .*update/);
      const second = await createUpdate(jobId, "-o");
      expect((await caller.updates.get({ id: first })).state).toBe("ABORTED");
      const listed = rowsOf((await peloton("update", "list", jobId)).stdout).slice(1);
      expect(listed.map((r) => r[0])).toEqual([second, first]);
      // It says which update it aborted.
      const third = await updateCreate(jobId, "-o");
      expect(third.stdout).toContain(`; update ${second} aborted (overridden)`);
    },
  );

  it(
    "refuses bad values before anything is sent, naming the option and the rule",
    MANY_RUNS,
    async () => {
      const jobId = await createService();
      for (const [args, message] of [
        [["2x"], /^peloton: batch-size: /],
        [["2", "--maxattempts", "-1"], /^peloton: --maxattempts: /],
        [["2", "-c", "one"], /^peloton: --configuration-version: /],
      ] as const) {
        const [batch, ...flags] = args;
        const run = await peloton(
          "update",
          "create",
          jobId,
          fixture("job-service-v2.yaml"),
          batch!,
          "/services",
          ...flags,
        );
        expectOneLineError(run, message);
      }
      expect((await caller.updates.list({ jobId })).items).toEqual([]);
    },
  );

  it("refuses what the API refuses, naming the rule, and changes nothing", MANY_RUNS, async () => {
    const jobId = await createService();
    // A batch size of 0 with no percentage.
    expectOneLineError(
      await peloton("update", "create", jobId, fixture("job-service-v2.yaml"), "0", "/services"),
      /batch/i,
    );
    // More tolerated failures than instances.
    expectOneLineError(
      await peloton(
        "update",
        "create",
        jobId,
        fixture("job-service-v2.yaml"),
        "1",
        "/services",
        "--maxfailureInstances",
        "50",
      ),
      /maxFailureInstances/,
    );
    // A configuration version that is not the job's.
    expectOneLineError(
      await peloton(
        "update",
        "create",
        jobId,
        fixture("job-service-v2.yaml"),
        "1",
        "/services",
        "-c",
        "7",
      ),
      /configVersion|version/i,
    );
    // Another pool: an update keeps the job where it is (Peloton refuses a RespoolID change).
    expectOneLineError(
      await peloton("update", "create", jobId, fixture("job-service-v2.yaml"), "1", "/batch"),
      /^peloton: respool: job .* runs in \/services; an update cannot move it to \/batch$/,
    );
    // A BATCH job is never updated.
    const batch = await peloton("job", "create", "/batch", fixture("job-batch.yaml"));
    const batchId = batch.stdout.split(" ")[1]!;
    expectOneLineError(
      await peloton("update", "create", batchId, fixture("job-batch.yaml"), "1", "/batch"),
      /BATCH/,
    );
    expect((await caller.updates.list({ jobId })).items).toEqual([]);
    expect((await caller.jobs.get({ id: jobId })).configVersion).toBe(1);
  });
});

describe("peloton update pause, resume, abort and rollback", () => {
  it(
    "pauses and resumes an update, aborts it, then refuses to pause a finished one",
    MANY_RUNS,
    async () => {
      const jobId = await createService();
      const id = await createUpdate(jobId);
      const paused = await peloton("update", "pause", id);
      expect(paused.stdout).toBe(`Job update ${id} paused (state PAUSED)\n`);
      const resumed = await peloton("update", "resume", id);
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toMatch(
        new RegExp(`^Job update ${id} resumed \\(state [A-Z_]+\\)\\n$`),
      );
      expect((await caller.updates.get({ id })).state).not.toBe("PAUSED");
      const aborted = await peloton("update", "abort", id);
      expect(aborted.stdout).toBe(`Job update ${id} aborted (state ABORTED)\n`);
      expectOneLineError(await peloton("update", "pause", id), /finished|ABORTED/);
      expect((await caller.updates.get({ id })).state).toBe("ABORTED");
    },
  );

  it("rolls an update back to the version it started from", async () => {
    const jobId = await createService();
    const id = await createUpdate(jobId);
    const run = await peloton("update", "rollback", id);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(
      new RegExp(
        `^Job update ${id} rolling back to configuration version 1 \\(state [A-Z_]+\\)\\n$`,
      ),
    );
  });

  it("says which update does not exist", async () => {
    const run = await peloton("update", "get", "6f1c2d3e-0000-4000-8000-000000000000");
    expectOneLineError(run, /6f1c2d3e-0000-4000-8000-000000000000/);
  });
});

describe("peloton job restart --batch-size", () => {
  it("starts a rolling restart (an update of kind RESTART) and prints its id", async () => {
    const jobId = await createService();
    const run = await peloton("job", "restart", jobId, "--batch-size", "1");
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(new RegExp(`^Job ${jobId} rolling restart ${UUID} created`));
    const updates = (await caller.updates.list({ jobId })).items;
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ kind: "RESTART", fromVersion: 1, toVersion: 1 });
    expect(updates[0]!.options.batchSize).toBe(1);
    expectOneLineError(
      await peloton("job", "restart", jobId, "--batch-size", "0"),
      /^peloton: --batch-size: /,
    );
  });
});
