/**
 * `npm start`: the console with everything it needs.
 *
 *   database  ── DATABASE_URL, or embedded PostgreSQL in .data/postgres
 *      │         (created on first start, reused after), migrated, demo data
 *      ▼         on an empty database
 *   cluster   ── MESOS_MASTER_URL, or mesos-sim in this process (demo cluster,
 *      │         sandboxes in .data/mesos-sim)
 *      ▼
 *   scheduler ── leader election; the leader subscribes and runs the loops
 *      ▼
 *   next build  (only when the build is missing or older than the sources)
 *      ▼
 *   next start  on PORT (3000), with DATABASE_URL pointing at that database;
 *               it talks to the scheduler only through PostgreSQL
 *
 * Node runs with --max-semi-space-size=32 (package.json): the scheduler
 * allocates many short-lived objects per status update, and a larger young
 * generation cut its CPU on a busy cluster by ~12% (fewer scavenges).
 *
 * Ctrl-C stops the console, then the scheduler (no TEARDOWN: tasks survive a
 * restart), mesos-sim, PostgreSQL. Start-up failures print one line naming
 * the problem and exit non-zero.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import {
  agentsFromArgument,
  type BootedSystem,
  bootSystem,
  preemptionFromEnv,
  StartupError,
} from "@peloton/scheduler/boot";
import { buildIsStale } from "./build-freshness.ts";

const consoleDir = resolve(import.meta.dirname, "..");
const repoRoot = resolve(consoleDir, "../..");
const dev = process.argv.includes("--dev");
const port = process.env.PORT ?? "3000";
const nextBin = join(
  dirname(createRequire(import.meta.url).resolve("next/package.json")),
  "dist/bin/next",
);

const log = (line: string) => console.log(`[peloton] ${line}`);

function fail(err: unknown): never {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`peloton: ${message.split("\n")[0]}`);
  if (process.env.PELOTON_DEBUG && err instanceof Error && !(err instanceof StartupError))
    console.error(err.stack);
  process.exit(1);
}

function runNext(args: string[], env: NodeJS.ProcessEnv) {
  return spawn(process.execPath, [nextBin, ...args], { cwd: consoleDir, env, stdio: "inherit" });
}

async function build(env: NodeJS.ProcessEnv): Promise<void> {
  log("building the console (first start or sources changed)…");
  const child = runNext(["build"], env);
  const code = await new Promise<number | null>((res) => child.on("exit", res));
  if (code !== 0) throw new Error(`next build failed (exit ${code}); see the output above`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const dataDir = process.env.PELOTON_DATA_DIR ?? join(repoRoot, ".data", "postgres");
  if (!process.env.DATABASE_URL) mkdirSync(dirname(dataDir), { recursive: true });

  let system: BootedSystem;
  try {
    const simDir = process.env.PELOTON_SIM_DIR ?? join(repoRoot, ".data", "mesos-sim");
    if (!process.env.MESOS_MASTER_URL) mkdirSync(simDir, { recursive: true });
    system = await bootSystem({
      databaseUrl: process.env.DATABASE_URL,
      dataDir,
      demo: process.env.PELOTON_DEMO !== "0",
      log,
      masterUrl: process.env.MESOS_MASTER_URL,
      preemption: preemptionFromEnv(process.env),
      sim: {
        sandboxDir: simDir,
        agents: agentsFromArgument(process.env.PELOTON_SIM_AGENTS),
        ...(process.env.PELOTON_SIM_PORT ? { port: Number(process.env.PELOTON_SIM_PORT) } : {}),
        fast: process.env.PELOTON_SIM_FAST === "1",
      },
    });
  } catch (err) {
    fail(err);
  }
  const { database } = system;
  log(
    database.source === "embedded"
      ? `PostgreSQL: embedded, ${database.connection.host}:${database.connection.port}, data in ${relative(repoRoot, dataDir) || dataDir}`
      : `PostgreSQL: ${database.connection.host}:${database.connection.port}/${database.connection.database} (DATABASE_URL)`,
  );
  if (database.applied.length) log(`migrations applied: ${database.applied.join(", ")}`);
  if (system.seeded) log("demo data created: pool tree under /DefaultResPool, /infra, /ml, /web");
  if (process.env.MESOS_MASTER_URL) log(`Mesos master: ${system.masterUrl} (MESOS_MASTER_URL)`);
  log(
    system.scheduler?.leading
      ? `scheduler: this replica leads (${system.scheduler.holder})`
      : "scheduler: standing by; another replica leads",
  );

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    // /api/health tells whether this replica leads by comparing it with the lease's holder.
    ...(system.scheduler ? { PELOTON_REPLICA: system.scheduler.holder } : {}),
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: port,
  };

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await system.stop().catch(() => undefined);
    process.exit(code);
  };

  try {
    if (!dev && buildIsStale(repoRoot, consoleDir)) await build(env);
  } catch (err) {
    await system.stop().catch(() => undefined);
    fail(err);
  }

  const server = runNext(dev ? ["dev", "-p", port] : ["start", "-p", port], env);
  log(
    `console starting on http://localhost:${port} (${((Date.now() - started) / 1000).toFixed(1)} s since launch)`,
  );
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (!server.killed) server.kill("SIGTERM");
    });
  }
  server.on("exit", (code, signal) => {
    void shutdown(signal ? 0 : (code ?? 0));
  });
}

main().catch(fail);
