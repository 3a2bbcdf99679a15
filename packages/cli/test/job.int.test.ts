/**
 * `peloton job` and `peloton task`: the real binary against the real API over
 * HTTP on the scratch database (no scheduler runs here, so tasks stay where
 * the API put them: PENDING with their intent). Output shapes are Peloton's.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createCaller } from "@peloton/api";
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { type ServedApi, serveApi } from "@peloton/test-support/api/http-server.ts";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BIN, expectOneLineError, runCli } from "./support/run-cli.ts";

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
  await leafPool(ctx.gateway, "batch");
});
afterAll(async () => {
  await api?.close();
  await ctx.close();
});

const peloton = (...args: string[]) => runCli(api.url, ...args);

async function createJob(): Promise<string> {
  const run = await peloton("job", "create", "/batch", fixture("job-batch.yaml"));
  expect(run.stderr).toBe("");
  expect(run.stdout).toMatch(new RegExp(`^Job ${UUID} created\\n$`));
  return run.stdout.split(" ")[1]!;
}

describe("peloton job create and task list", () => {
  it("creates a job from Peloton's YAML and lists its tasks in Peloton's columns", async () => {
    const id = await createJob();
    const list = await peloton("task", "list", id);
    expect(list.code).toBe(0);
    const [header, ...rows] = list.stdout.trimEnd().split("\n");
    expect(header!.split(/\s{2,}/)).toEqual([
      "Instance",
      "Name",
      "State",
      "Healthy",
      "Start Time",
      "Run Time",
      "Host",
      "Message",
      "Reason",
      "Termination Status",
    ]);
    expect(rows).toHaveLength(3);
    // No start, run time, host, message or reason before the scheduler has seen it.
    expect(rows[0]).toMatch(/^0\s+cli_batch\s+PENDING\s+DISABLED$/);
    expect(rows[2]).toMatch(/^2\s+cli_batch\s/);

    const range = await peloton("task", "list", id, "--range", "1:2");
    expect(range.stdout.trimEnd().split("\n").slice(1)).toEqual([
      expect.stringMatching(/^1\s+cli_batch\s/),
    ]);
    const one = await peloton("task", "get", id, "2");
    expect(one.stdout.trimEnd().split("\n")[1]).toMatch(/^2\s+cli_batch\s+PENDING\s+DISABLED$/);
  });

  it("shows each run's health in the Healthy column (HEALTH_UNKNOWN until a check reports)", async () => {
    await leafPool(ctx.gateway, "services");
    const run = await peloton("job", "create", "/services", fixture("job-service-health.yaml"));
    expect(run.stderr).toBe("");
    const id = run.stdout.split(" ")[1]!;
    // Instance 1's run reached RUNNING and its check passed (what the scheduler writes).
    await directSql(
      `UPDATE tasks SET state = 'RUNNING', health = 'HEALTHY', health_run_id = run_id
       WHERE job_id = $1 AND instance_id = 1`,
      [id],
    );
    const list = await peloton("task", "list", id);
    const rows = list.stdout.trimEnd().split("\n").slice(1);
    expect(rows[0]).toMatch(/^0\s+cli_service\s+PENDING\s+HEALTH_UNKNOWN$/);
    expect(rows[1]).toMatch(/^1\s+cli_service\s+RUNNING\s+HEALTHY$/);
  });

  it("refuses a file with an unknown field, naming the file, field and line, and stores nothing", async () => {
    const run = await peloton("job", "create", "/batch", fixture("job-unknown-field.yaml"));
    expectOneLineError(
      run,
      /job-unknown-field\.yaml: sla\.colour \(line 11\): unknown field "colour"/,
    );
    expect((await caller.jobs.list({})).items).toEqual([]);
  });

  it("refuses a negative cpuLimit, naming the field as written and its line, and stores nothing", async () => {
    const run = await peloton("job", "create", "/batch", fixture("job-negative-cpu.yaml"));
    expectOneLineError(
      run,
      /job-negative-cpu\.yaml: defaultconfig\.resource\.cpulimit \(line 14\): .*-1/,
    );
    expect((await caller.jobs.list({})).items).toEqual([]);
  });

  it("refuses a pool that does not exist", async () => {
    const run = await peloton("job", "create", "/nowhere", fixture("job-batch.yaml"));
    expectOneLineError(run, /\/nowhere: no such pool/);
  });
});

describe("peloton job get, status and query", () => {
  it("prints the job as Peloton's JobInfo and its runtime, in YAML or JSON", async () => {
    const id = await createJob();
    const got = parse((await peloton("job", "get", id)).stdout);
    expect(got.jobInfo.id).toEqual({ value: id });
    // Who submitted it: the signed-in login, not the file's owner.
    expect(got.jobInfo.submittedBy).toBe("cli-user");
    expect(got.jobInfo.config).toMatchObject({
      name: "cli_batch",
      type: "BATCH",
      owningTeam: "infra",
      instanceCount: 3,
      respoolID: { value: "/batch" },
    });
    expect(got.jobInfo.runtime).toMatchObject({
      state: "PENDING",
      goalState: "SUCCEEDED",
      taskStats: { PENDING: 3 },
    });
    const status = JSON.parse((await peloton("job", "status", id, "--json")).stdout);
    expect(status).toMatchObject({ state: "PENDING", taskStats: { PENDING: 3 } });
    expect(status.creationTime).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("queries by pool, state, owner, label and name in Peloton's summary table", async () => {
    const id = await createJob();
    const table = await peloton(
      "job",
      "query",
      "--respool",
      "/batch",
      "--states",
      "pending,running",
      "--owner",
      "cli-user",
      "--labels",
      "pipeline=nightly",
      "--name",
      "cli_",
    );
    const [header, row, ...rest] = table.stdout.trimEnd().split("\n");
    expect(header!.split(/\s{2,}/)).toEqual([
      "ID",
      "Name",
      "Owner",
      "State",
      "Creation Time",
      "Completion Time",
      "Total",
      "Running",
      "Succeeded",
      "Failed",
      "Killed",
    ]);
    expect(row).toMatch(
      new RegExp(
        `^${id}\\s+cli_batch\\s+cli-user\\s+PENDING\\s+\\S+Z\\s+--\\s+3\\s+0\\s+0\\s+0\\s+0$`,
      ),
    );
    expect(rest).toEqual([]);
    for (const miss of [
      ["--labels", "pipeline=hourly"],
      ["--states", "KILLED"],
      ["--owner", "bob"],
      ["--name", "other"],
    ])
      expect((await peloton("job", "query", ...miss)).stdout).toBe("No jobs found.\n");
    expectOneLineError(await peloton("job", "query", "--sortorder", "UP"), /Invalid sort order UP/);
  });
});

describe("peloton job and task actions", () => {
  it("task stop over every instance stops the job (goal KILLED), as Peloton's; a subset does not", async () => {
    const id = await createJob();
    const jobGoal = async () => (await caller.jobs.get({ id })).goalState;
    await peloton("task", "stop", id, "-r", "0:1");
    expect(await jobGoal()).toBe("SUCCEEDED");
    // Instance 0 was stopped already: the other two are signalled, and the job is stopped.
    expect((await peloton("task", "stop", id)).stdout).toBe(
      "Successfully signalled 2 tasks for stopping\n",
    );
    expect(await jobGoal()).toBe("KILLED");
  });

  it("stops, starts and restarts instance ranges, then the job, and deletes it", async () => {
    const id = await createJob();
    expect((await peloton("task", "stop", id, "-r", "0:2")).stdout).toBe(
      "Successfully signalled 2 tasks for stopping\n",
    );
    const goals = async () =>
      (await caller.tasks.list({ jobId: id })).items.map((t) => t.goalState);
    expect(await goals()).toEqual(["KILLED", "KILLED", "SUCCEEDED"]);
    expect((await peloton("task", "start", id, "--range", "1:")).stdout).toBe(
      "Tasks started successfully for instances: [1] and failed instances are: []\n",
    );
    expect(await goals()).toEqual(["KILLED", "SUCCEEDED", "SUCCEEDED"]);
    expect((await peloton("task", "restart", id, "-r", "2:3")).stdout).toBe(
      "Job restarted: instances [2] get a new run\n",
    );
    expectOneLineError(
      await peloton("task", "stop", id, "-r", "5:"),
      /--range 5: holds no instance of this job \(it has 3: 0 to 2\)/,
    );

    expect((await peloton("job", "stop", id)).stdout).toBe(
      `Successfully signalled 2 tasks for stopping\nStopping jobs: [${id}]\n`,
    );
    expect(await goals()).toEqual(["KILLED", "KILLED", "KILLED"]);
    expect((await peloton("job", "delete", id)).stdout).toBe(`Job ${id} deleted\n`);
    expect((await caller.jobs.get({ id })).goalState).toBe("DELETED");
  });

  it("stops every active job of an owner when forced, and says when none match", async () => {
    const a = await createJob();
    const b = await createJob();
    const run = await peloton("job", "stop", "--owner", "cli-user", "--force");
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+Name\s+Owner/);
    expect(lines.at(-1)).toMatch(new RegExp(`^Stopping jobs: \\[(${a} ${b}|${b} ${a})\\]$`));
    expect((await peloton("job", "stop", "--owner", "nobody", "-f")).stdout).toBe(
      "No matching job(s) found\n",
    );
    // Without a terminal to ask and without --force, nothing is stopped.
    const c = await createJob();
    const asked = await peloton("job", "stop", "--labels", "pipeline=nightly");
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain(c);
    expect(asked.stderr).toMatch(/^peloton: .*add --force to act on them\n$/);
    expect((await caller.jobs.get({ id: c })).goalState).toBe("SUCCEEDED");
  });

  it("says why a task that never ran has no logs, in one line", async () => {
    const id = await createJob();
    expectOneLineError(
      await peloton("task", "logs", id, "0"),
      /run 1 of instance 0 of job .* has not been launched yet \(it is PENDING\), so it has no logs/,
    );
  });

  it("follows a log that cannot be read yet: says why on stderr, waits, and stops on Ctrl-C", async () => {
    const id = await createJob();
    const child = spawn(process.execPath, [BIN, "task", "logs", id, "1", "--follow"], {
      env: { ...process.env, PELOTON_URL: api.url },
    });
    let stderr = "";
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    await new Promise<void>((ok) =>
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes("\n")) ok();
      }),
    );
    expect(stderr).toMatch(
      /^run 1 of instance 1 of job .* has not been launched yet \(it is PENDING\)/,
    );
    const exited = new Promise<number | null>((ok) => child.once("exit", (code) => ok(code)));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stdout).toBe("");
  });
});
