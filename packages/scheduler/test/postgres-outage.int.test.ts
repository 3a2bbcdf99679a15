/**
 * kill -9 of PostgreSQL (an embedded server of this test's own, in a temp
 * folder) under a launch and a stream of job creates: the leader steps down
 * at once, every create that got an answer is stored, the refused ones were
 * refused as an outage, and the scheduler leads again within 5 s of
 * PostgreSQL being back; the launch then completes, each instance once.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jobConfigSchema } from "@peloton/engine";
import { isDatabaseUnavailable, openGateway } from "@peloton/storage";
import {
  type EmbeddedServer,
  ensureDatabase,
  formatDatabaseUrl,
  startEmbeddedPostgres,
} from "@peloton/storage/bootstrap";
import { applyMigrations } from "@peloton/storage/migrations";
import { agent, leafPool, ROOMY, submit } from "@peloton/test-support/scheduler/system.ts";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startScheduler } from "../src/assembly/replica.ts";
import { mesosHostAdapter } from "../src/hostmgr/mesos/mesos-adapter.ts";
import { createJob } from "../src/jobmgr/create-job.ts";
import { log, onCleanup, testSim } from "./support/cluster.ts";

const INSTANCES = 300;

async function ownPostgres() {
  const dir = mkdtempSync(join(tmpdir(), "pg-outage-"));
  // PostgreSQL runs as the `postgres` user when we are root: it must reach its folder.
  // The test keeps it down itself (no restart on exit), to time the outage.
  chmodSync(dir, 0o755);
  const dataDir = join(dir, "data");
  let server: EmbeddedServer = await startEmbeddedPostgres({ dataDir, restartOnExit: false });
  const port = server.connection.port;
  const connection = { ...server.connection, database: "peloton" };
  await ensureDatabase(connection);
  await applyMigrations(connection);
  onCleanup(async () => {
    await server.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    url: formatDatabaseUrl(connection),
    kill9() {
      const pid = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      process.kill(pid, "SIGKILL");
    },
    /** Starts it again on the same port; the crashed server's backends may take a moment to go. */
    async restart() {
      const deadline = Date.now() + 20_000;
      for (;;) {
        try {
          server = await startEmbeddedPostgres({ dataDir, port, restartOnExit: false });
          return;
        } catch (err) {
          if (Date.now() > deadline) throw err;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    },
  };
}

async function count(url: string, text: string, values: unknown[]): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>(text, values)).rows[0]!.n;
  } finally {
    await client.end();
  }
}

const smallJob = (i: number) =>
  jobConfigSchema.parse({
    name: `create-${i}`,
    type: "SERVICE",
    instanceCount: 1,
    defaultConfig: { resource: { cpuLimit: 0.01, memLimitMb: 1 }, command: { value: "sleep 600" } },
  });

describe("PostgreSQL killed under load", () => {
  it("answered creates are kept, refusals are outages, and the scheduler leads again within 5 s", async () => {
    const db = await ownPostgres();
    const sim = await testSim({
      agents: Array.from({ length: 4 }, (_, i) =>
        agent(`o-${i}.test`, {
          resources: { cpus: 64, mem: 262_144, disk: 1_000_000 },
          simulateTasks: true,
        }),
      ),
      heartbeatIntervalSeconds: 1,
    });
    // The API's gateway (unfenced), as the console's server has one.
    const api = openGateway(db.url, { max: 4 });
    onCleanup(() => api.close());
    const pool = await leafPool(api, "batch", ROOMY);
    const runtime = startScheduler({
      databaseUrl: db.url,
      adapter: mesosHostAdapter({
        master: sim.url,
        hostRefreshMs: 500,
        client: { backoff: { initialMs: 20, maxMs: 200 } },
      }),
      log,
      holder: "replica-a",
      scheduling: {
        admissionPeriodMs: 200,
        placement: { periodMs: 200 },
        goalState: { periodMs: 500 },
      },
    });
    onCleanup(() => runtime.stop());
    await runtime.ready(30_000);
    const firstEpoch = runtime.epoch!;
    const launchId = await submit(api, pool, {
      name: "launch",
      type: "SERVICE",
      instanceCount: INSTANCES,
      defaultConfig: {
        resource: { cpuLimit: 0.1, memLimitMb: 32 },
        command: { value: "sleep 600" },
      },
    });

    // Job creates all through the outage, as users of the API would send them.
    const answered: string[] = [];
    const refused: unknown[] = [];
    let creating = true;
    const creates = (async () => {
      for (let i = 0; creating; i++) {
        try {
          const r = await createJob(api, {
            config: smallJob(i),
            configYaml: `name: create-${i}`,
            poolPath: pool,
            acting: { login: "test", via: "test" },
          });
          if (r.ok) answered.push(r.jobId);
          else refused.push(r.failure);
        } catch (err) {
          refused.push(err);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    await new Promise((r) => setTimeout(r, 300));
    db.kill9();
    const killed = performance.now();
    await expect
      .poll(() => !runtime.leading && runtime.hostManager === undefined, {
        timeout: 2_000,
        interval: 10,
      })
      .toBe(true);
    const deposedMs = performance.now() - killed;

    await new Promise((r) => setTimeout(r, 1_000));
    await db.restart();
    const back = performance.now();
    await expect.poll(() => runtime.leading, { timeout: 5_000, interval: 20 }).toBe(true);
    const reelectedMs = performance.now() - back;
    expect(reelectedMs).toBeLessThan(5_000);
    expect(runtime.epoch!).toBeGreaterThan(firstEpoch);
    log.info({ deposedMs, reelectedMs }, "outage timings");

    await new Promise((r) => setTimeout(r, 1_000));
    creating = false;
    await creates;
    expect(answered.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.filter((err) => !isDatabaseUnavailable(err))).toEqual([]);
    expect(
      await count(db.url, "SELECT count(*)::int AS n FROM jobs WHERE id = ANY($1::uuid[])", [
        answered,
      ]),
    ).toBe(answered.length);

    // The launch completes after the outage, each instance once.
    await runtime.ready(30_000);
    await expect
      .poll(
        () =>
          count(
            db.url,
            "SELECT count(*)::int AS n FROM tasks WHERE job_id = $1 AND state = 'RUNNING'",
            [launchId],
          ),
        { timeout: 60_000, interval: 500 },
      )
      .toBe(INSTANCES);
    const launched = sim.tasks().filter((t) => t.taskId.startsWith(launchId));
    expect(launched).toHaveLength(INSTANCES);
  }, 120_000);
});
