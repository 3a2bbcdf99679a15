/**
 * `npm start`: the console with everything it needs.
 *
 *   lock       one launcher per data folder (.data/postgres.launcher.json);
 *      │       what a dead launcher left running is stopped first
 *      ▼
 *   reaper     a small process that stops PostgreSQL and next-server if this
 *      │       one dies, even by kill -9 (supervision/reaper.ts says how)
 *      ▼
 *   database   DATABASE_URL, or embedded PostgreSQL in .data/postgres
 *      │       (created on first start, reused after; restarted on the same
 *      │       port if it dies), migrated, demo data on an empty database
 *      ▼
 *   cluster    MESOS_MASTER_URL, or mesos-sim in this process (demo cluster,
 *      │       sandboxes in .data/mesos-sim)
 *      ▼
 *   scheduler  leader election; the leader subscribes and runs the loops
 *      ▼
 *   next build (only when the build is missing or older than the sources)
 *      ▼
 *   next start on PORT (3000), with DATABASE_URL pointing at that database;
 *              it talks to the scheduler only through PostgreSQL
 *
 * Node runs with --max-semi-space-size=32 (package.json): the scheduler
 * allocates many short-lived objects per status update, and a larger young
 * generation cut its CPU on a busy cluster by ~12% (fewer scavenges).
 *
 * Ctrl-C (or SIGTERM, SIGHUP, or the death of the process that started this
 * one) stops the console, then the scheduler (no TEARDOWN: tasks survive a
 * restart), mesos-sim (which leaves its tasks running), PostgreSQL. PostgreSQL
 * and next-server run in their own process groups so that the terminal's
 * Ctrl-C reaches only this process, which stops them in that order.
 * Start-up failures print one line saying what to do and exit non-zero.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { ensureFirstPeople } from "@peloton/api/first-start";
import { createIdentityService } from "@peloton/scheduler";
import {
  agentsFromArgument,
  type BootedSystem,
  bootSystem,
  type EmbeddedServer,
  formatDatabaseUrl,
  preemptionFromEnv,
  StartupError,
  startEmbeddedPostgres,
} from "@peloton/scheduler/boot";
import { openGateway } from "@peloton/storage";
import { processRef, stopProcess } from "@peloton/storage/processes";
import { buildIsStale } from "./build-freshness.ts";
import { describeFailure, isStartupError } from "./failure.ts";
import { type Children, superviseChildren } from "./supervision/children.ts";
import { acquireLauncherLock, type LauncherLock } from "./supervision/launcher-lock.ts";
import { portHolder, portIsFree } from "./supervision/port.ts";
import { STOP_CONSOLE } from "./supervision/protocol.ts";

const consoleDir = resolve(import.meta.dirname, "..");
const repoRoot = resolve(consoleDir, "../..");
const dev = process.argv.includes("--dev");
const port = process.env.PORT ?? "3000";
const nextBin = join(
  dirname(createRequire(import.meta.url).resolve("next/package.json")),
  "dist/bin/next",
);

const log = (line: string) => console.log(`[peloton] ${line}`);

/**
 * On an empty users table: the admin (PELOTON_ADMIN_PASSWORD or a random
 * password) and, with demo data, the demo teams and users; the generated
 * passwords are printed once (docs/identity.md, "First start").
 */
async function firstPeople(databaseUrl: string, demo: boolean): Promise<void> {
  const gateway = openGateway(databaseUrl, { max: 1 });
  try {
    const people = await ensureFirstPeople({
      gateway,
      identity: createIdentityService(gateway),
      demo,
      adminPassword: process.env.PELOTON_ADMIN_PASSWORD,
      print: (text) => console.log(text),
    });
    if (people.length) log(`people created: ${people.map((p) => p.login).join(", ")}`);
  } catch (err) {
    // A setting the operator gave (a short PELOTON_ADMIN_PASSWORD): one line, no stack.
    throw new StartupError(`first start: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await gateway.close();
  }
}

let lock: LauncherLock | undefined;
let children: Children | undefined;
let embedded: EmbeddedServer | undefined;
let system: BootedSystem | undefined;
let builder: ChildProcess | undefined;
let server: ChildProcess | undefined;
let stopping = false;

/** Stops a next process (its whole group) unless it has exited. */
async function stopNext(child: ChildProcess | undefined): Promise<void> {
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    await stopProcess(processRef(child.pid), STOP_CONSOLE, { group: true });
  }
}

/** Stops what this launcher started, in order, then exits. */
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await stopNext(builder);
    await stopNext(server);
    await system?.stop().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    children?.close();
    lock?.release();
    process.exit(code);
  }
  return new Promise<never>(() => {});
}

async function fail(err: unknown): Promise<never> {
  console.error(`peloton: ${describeFailure(err, server ? "running" : "start-up")}`);
  if (process.env.PELOTON_DEBUG && err instanceof Error && !isStartupError(err))
    console.error(err.stack);
  return shutdown(1);
}

/** Runs next in its own process group (see the header), watched by the reaper. */
function runNext(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [nextBin, ...args], {
    cwd: consoleDir,
    env,
    stdio: "inherit",
    detached: true,
  });
  const pid = child.pid;
  if (pid) {
    children?.watch("console", pid);
    child.once("exit", () => children?.forget(pid));
  }
  return child;
}

async function build(env: NodeJS.ProcessEnv): Promise<void> {
  log("building the console (first start or sources changed)…");
  const child = runNext(["build"], env);
  builder = child;
  const code = await new Promise<number | null>((res) => child.on("exit", res));
  if (code !== 0 && !stopping) {
    throw new StartupError(`next build failed (exit ${code}): see the output above`);
  }
}

/** The folder whose launcher lock this start takes: the state it must not share. */
function guardedFolder(dataDir: string, simDir: string): string | undefined {
  if (!process.env.DATABASE_URL) return dataDir;
  if (!process.env.MESOS_MASTER_URL) return simDir;
  return undefined; // a replica on shared services: nothing of its own to guard
}

async function startDatabase(dataDir: string): Promise<string> {
  let watchedPid: number | undefined;
  embedded = await startEmbeddedPostgres({
    dataDir,
    detached: true,
    // This launcher holds the folder's lock: a server still running there was left by a dead one.
    leftover: "stop",
    note: log,
    ...(process.env.PELOTON_DEBUG
      ? { onLog: (l: string) => console.error(`[postgres] ${l}`) }
      : {}),
    onPostmaster: (pid) => {
      if (watchedPid !== undefined) children?.forget(watchedPid);
      watchedPid = pid;
      if (pid !== undefined) children?.watch("postgres", pid);
    },
    onGiveUp: (err) => void fail(err),
  });
  const inRepo = relative(repoRoot, dataDir);
  const where =
    embedded.dataDir !== dataDir || !inRepo || inRepo.startsWith("..") ? embedded.dataDir : inRepo;
  log(
    `PostgreSQL: embedded, ${embedded.connection.host}:${embedded.connection.port}, data in ${where}`,
  );
  return formatDatabaseUrl({ ...embedded.connection, database: "peloton" });
}

async function main(): Promise<void> {
  const started = Date.now();
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => void shutdown(0));
  }
  // Output whose reader is gone (the terminal or test runner that started us
  // died) is dropped: an EPIPE must neither crash the launcher nor, reported
  // on that same stream, raise another EPIPE forever.
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
  // One line, never a stack, whatever fails and wherever (once: a failure
  // while failing is the first one's echo).
  let failing = false;
  const failOnce = (err: unknown) => {
    if (failing) return;
    failing = true;
    void fail(err);
  };
  process.on("uncaughtException", failOnce);
  process.on("unhandledRejection", failOnce);
  // kill -9 of the process that started this one (tsx's CLI under npm start)
  // is meant for the launcher: stop as on Ctrl-C rather than run on unseen.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid === parent || stopping) return;
    log(`the process that started the launcher (pid ${parent}) is gone: stopping`);
    void shutdown(0);
  }, 1_000).unref();

  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    throw new StartupError(`PORT must be a port number (1-65535), not "${port}"`);
  }
  const dataDir = resolve(process.env.PELOTON_DATA_DIR ?? join(repoRoot, ".data", "postgres"));
  const simDir = resolve(process.env.PELOTON_SIM_DIR ?? join(repoRoot, ".data", "mesos-sim"));
  if (!process.env.DATABASE_URL) mkdirSync(dirname(dataDir), { recursive: true });
  if (!process.env.MESOS_MASTER_URL) mkdirSync(simDir, { recursive: true });

  const guarded = guardedFolder(dataDir, simDir);
  if (guarded) {
    lock = await acquireLauncherLock(`${guarded}.launcher.json`, { guards: guarded, port }, log);
  }
  children = superviseChildren({ repoRoot, lock, log });
  if (!(await portIsFree(Number(port)))) {
    const holder = portHolder(Number(port));
    throw new StartupError(
      `port ${port} is already in use${holder ? ` by ${holder}` : ""}: stop that process, or start with PORT=<another port>`,
    );
  }

  const databaseUrl = process.env.DATABASE_URL || (await startDatabase(dataDir));
  const demo = process.env.PELOTON_DEMO !== "0";
  system = await bootSystem({
    databaseUrl,
    dataDir,
    demo,
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
  if (stopping) return;
  const { database } = system;
  if (!embedded) {
    log(
      `PostgreSQL: ${database.connection.host}:${database.connection.port}/${database.connection.database} (DATABASE_URL)`,
    );
  }
  if (database.applied.length) log(`migrations applied: ${database.applied.join(", ")}`);
  if (system.seeded) log("demo data created: pool tree under /DefaultResPool, /infra, /ml, /web");
  await firstPeople(database.url, demo);
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
  if (!dev && buildIsStale(repoRoot, consoleDir)) await build(env);
  if (stopping) return;

  server = runNext(dev ? ["dev", "-p", port] : ["start", "-p", port], env);
  log(
    `console starting on http://localhost:${port} (${((Date.now() - started) / 1000).toFixed(1)} s since launch)`,
  );
  server.on("exit", (code, signal) => {
    if (stopping) return;
    if (code) log(`the console (next-server) exited with code ${code}: stopping`);
    void shutdown(signal ? 0 : (code ?? 0));
  });
}

main().catch(fail);
