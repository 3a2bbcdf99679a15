/**
 * Playwright's web server: a scratch database (on DATABASE_URL's server, or a
 * fresh embedded PostgreSQL) with the demo pools, then the console through
 * the same launcher as `npm start` — scheduler and preemptor included — with
 * its in-process mesos-sim running a small known cluster (E2E_AGENTS) on a
 * known port, so specs can make agents come and go. The preemptions and the
 * work the specs find are made by global-setup.ts through the API.
 * Everything is dropped when Playwright stops it.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { bootSystem } from "@peloton/scheduler/boot";
import { openGateway } from "@peloton/storage";
import { killTaskProcesses } from "@peloton/test-support/mesos/task-processes.ts";
import { createScratchDatabase } from "@peloton/test-support/storage/scratch-database.ts";
import { AUTH_ENV } from "./auth-env.ts";
import { E2E_AGENTS, type E2eFixture, FIXTURE_FILE } from "./fixture.ts";

const repoRoot = resolve(import.meta.dirname, "../..");

// Before anything boots: the first start creates the admin with this password (docs/identity.md).
Object.assign(process.env, AUTH_ENV);
const db = await createScratchDatabase("peloton_e2e", { migrate: false });
const booted = await bootSystem({
  databaseUrl: db.url,
  dataDir: "",
  demo: true,
  log: console.log,
  scheduler: false,
});

// Known contents beyond the demo pools. The work the specs find running is not
// made here: global-setup.ts submits it through the API once the scheduler runs.
const gateway = openGateway(db.url, { max: 2 });
// A host the cluster lost before this run: its agent is not in E2E_AGENTS, so it stays LOST.
await gateway.hosts.upsert({
  hostname: "e2e-lost-0",
  agentId: "e2e-lost-agent-0",
  attributes: { zone: "a" },
  cpu: 8,
  memMb: 32768,
  diskMb: 100000,
  gpu: 0,
  ports: [[31000, 32000]],
  state: "LOST",
});
const summary = await gateway.overview.clusterSummary();
const allPools = await gateway.pools.listAll();
await gateway.close();
const fixture: Omit<
  E2eFixture,
  "backlogJobs" | "jobs" | "tasks" | "preemptions" | "adminToken" | "apiHeaders"
> = {
  pools: summary.pools,
  poolPaths: allPools.filter((p) => p.parentId).map((p) => p.path),
  // The sim's agents register UP before the console serves its first page.
  hosts: summary.hosts + E2E_AGENTS.length,
  hostsByState: {
    ...(summary.hostsByState as Record<string, number>),
    UP: (summary.hostsByState.UP ?? 0) + E2E_AGENTS.length,
  },
  simUrl: `http://127.0.0.1:${await freePort()}`,
  databaseUrl: db.url,
};
mkdirSync(dirname(FIXTURE_FILE), { recursive: true });
writeFileSync(FIXTURE_FILE, JSON.stringify(fixture, null, 2));
await booted.stop();

const agentFile = join(dirname(FIXTURE_FILE), "e2e-agents.json");
writeFileSync(agentFile, JSON.stringify({ agents: E2E_AGENTS }, null, 2));
const SERVER_LOG_FILE = resolve(repoRoot, "test-results/e2e-server.log");
mkdirSync(dirname(SERVER_LOG_FILE), { recursive: true });
const simDir = mkdtempSync(join(tmpdir(), "peloton-e2e-sim-"));

const server = spawn(
  process.execPath,
  ["--import", "tsx", join(repoRoot, "apps/console/server/start.ts")],
  {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      // A known admin password and auth secret: global-setup.ts signs in with them.
      ...AUTH_ENV,
      PELOTON_DEMO: "0",
      MESOS_MASTER_URL: "",
      PELOTON_SIM_AGENTS: agentFile,
      PELOTON_SIM_PORT: new URL(fixture.simUrl).port,
      PELOTON_SIM_DIR: simDir,
      PELOTON_SIM_FAST: "1",
      // Preemption within seconds, not half a minute: a pool over its entitlement
      // for 3 periods of 1 s gives back (the journey in preemption-journey.ts).
      PELOTON_PREEMPTION_PERIOD_SECONDS: "1",
      PELOTON_PREEMPTION_SUSTAINED_PERIODS: "3",
    },
    stdio: ["ignore", "pipe", "pipe"],
  },
);
// The console's and the scheduler's logs, for reading after a failed run
// (playwright.config.ts leaves the server's stdout out of the runner's
// output; its stderr still shows there).
const serverLog = createWriteStream(SERVER_LOG_FILE);
server.stdout.pipe(serverLog, { end: false });
server.stderr.pipe(serverLog, { end: false });
server.stderr.pipe(process.stderr, { end: false });
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  // The sim checkpoints into simDir, so its tasks outlive the server (for a next start that
  // never comes here): they go with the dir.
  killTaskProcesses(simDir);
  rmSync(simDir, { recursive: true, force: true });
  await db.dispose();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => {
  if (!stopping) {
    console.error(`console exited (${code})`);
    void db.dispose().then(() => process.exit(1));
  }
});

/** A port nobody listens on now (the sim binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
  });
}
