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
 *   gRPC       Peloton's API for every language on HOST:PELOTON_GRPC_PORT
 *      │       (5397; packages/peloton-api), in this process
 *      ▼
 *   next build (only when the build is missing or older than the sources)
 *      ▼
 *   next start on HOST:PORT (127.0.0.1:3000), with DATABASE_URL pointing at that database;
 *              it talks to the scheduler only through PostgreSQL
 *
 * Node runs with --max-semi-space-size=64 (package.json): the scheduler
 * allocates many short-lived objects per status update, and a larger young
 * generation cut its CPU on a busy cluster by ~12% at 32 MB (fewer
 * scavenges), and by a median ~12% more at 64 MB (nine alternated pairs of
 * e2e.batch_10k_agents_500: less CPU in seven, more tasks/s in six).
 * `npm run bench` runs with the same flag.
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
import {
  EnvironmentError,
  readEnvironment,
  redacted,
  SERVER_VARIABLES,
} from "@peloton/engine/environment";
import { type GrpcServer, processDeps, startGrpcServer } from "@peloton/peloton-api";
import { createIdentityService, createLogger, type Logger } from "@peloton/scheduler";
import {
  agentsFromArgument,
  type BootedSystem,
  bootSystem,
  type EmbeddedServer,
  formatDatabaseUrl,
  preemptionSettings,
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
const nextBin = join(
  dirname(createRequire(import.meta.url).resolve("next/package.json")),
  "dist/bin/next",
);

/**
 * The launcher's own lines, through pino like every log line (readable on a
 * terminal, JSON elsewhere). Always at info: PELOTON_LOG_LEVEL is the
 * scheduler's, and `npm start` must say what it does whatever that is. The one
 * start-up failure line (fail) stays plain stderr: it is the launcher's answer.
 */
let launcherLog: Logger | undefined;
const log = (line: string) => {
  launcherLog ??= createLogger({
    PELOTON_LOG_LEVEL: "info",
    PELOTON_LOG_FORMAT: env?.PELOTON_LOG_FORMAT ?? "auto",
  });
  launcherLog.info(line);
};

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
      adminPassword: env?.PELOTON_ADMIN_PASSWORD,
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
let grpc: GrpcServer | undefined;
let stopping = false;
/** The environment, read and checked first thing in main (one line names every bad variable). */
let env: ReturnType<typeof readServerEnvironment> | undefined;

function readServerEnvironment() {
  try {
    return readEnvironment(process.env, SERVER_VARIABLES);
  } catch (err) {
    if (err instanceof EnvironmentError) throw new StartupError(err.message);
    throw err;
  }
}

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
    await grpc?.close().catch(() => undefined);
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
  if (env?.PELOTON_DEBUG && err instanceof Error && !isStartupError(err)) console.error(err.stack);
  return shutdown(1);
}

/** Runs next in its own process group (see the header), watched by the reaper. */
function runNext(args: string[], childEnv: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [nextBin, ...args], {
    cwd: consoleDir,
    env: childEnv,
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

async function build(childEnv: NodeJS.ProcessEnv): Promise<void> {
  log("building the console (first start or sources changed)…");
  const child = runNext(["build"], childEnv);
  builder = child;
  const code = await new Promise<number | null>((res) => child.on("exit", res));
  if (code !== 0 && !stopping) {
    throw new StartupError(`next build failed (exit ${code}): see the output above`);
  }
}

/** The folder whose launcher lock this start takes: the state it must not share. */
function guardedFolder(dataDir: string, simDir: string): string | undefined {
  if (!env?.DATABASE_URL) return dataDir;
  if (!env.MESOS_MASTER_URL) return simDir;
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
    ...(env?.PELOTON_DEBUG ? { onLog: (l: string) => log(`postgres: ${l}`) } : {}),
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

/**
 * Peloton's gRPC API in this process, over the same router as the console
 * (packages/peloton-api); its YARPC JSON twin is the console's /api/v1.
 */
async function startPelotonApi(databaseUrl: string, host: string): Promise<void> {
  const port = env?.PELOTON_GRPC_PORT ?? 5397;
  // The API's process helpers find the database here, as next-server's do (childEnv).
  process.env.DATABASE_URL = databaseUrl;
  try {
    grpc = await startGrpcServer({
      port,
      host,
      deps: processDeps(),
      onInternalError: (err, procedure) =>
        launcherLog?.error({ err, procedure }, "Peloton API: internal error"),
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
    const holder = portHolder(port);
    throw new StartupError(
      `port ${port} (PELOTON_GRPC_PORT) is already in use${holder ? ` by ${holder}` : ""}: stop that process, or start with PELOTON_GRPC_PORT=<another port> (0: any free port)`,
    );
  }
  const shownHost = host.includes(":") ? `[${host}]` : host;
  log(`Peloton API (gRPC) on ${shownHost}:${grpc.port}; YARPC JSON at the console's /api/v1`);
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

  env = readServerEnvironment();
  if (env.PELOTON_DEBUG) log(`environment: ${JSON.stringify(redacted(env))}`);
  const { PORT: port, HOST: host } = env;
  const dataDir = resolve(env.PELOTON_DATA_DIR ?? join(repoRoot, ".data", "postgres"));
  const simDir = resolve(env.PELOTON_SIM_DIR ?? join(repoRoot, ".data", "mesos-sim"));
  if (!env.DATABASE_URL) mkdirSync(dirname(dataDir), { recursive: true });
  if (!env.MESOS_MASTER_URL) mkdirSync(simDir, { recursive: true });

  const guarded = guardedFolder(dataDir, simDir);
  if (guarded) {
    lock = await acquireLauncherLock(
      `${guarded}.launcher.json`,
      { guards: guarded, port: String(port) },
      log,
    );
  }
  children = superviseChildren({ repoRoot, lock, log });
  if (!(await portIsFree(port, host))) {
    const holder = portHolder(port);
    throw new StartupError(
      `port ${port} is already in use${holder ? ` by ${holder}` : ""}: stop that process, or start with PORT=<another port>`,
    );
  }

  const databaseUrl = env.DATABASE_URL || (await startDatabase(dataDir));
  system = await bootSystem({
    databaseUrl,
    dataDir,
    demo: env.PELOTON_DEMO,
    log,
    masterUrl: env.MESOS_MASTER_URL,
    preemption: preemptionSettings(env),
    sim: {
      sandboxDir: simDir,
      agents: agentsFromArgument(env.PELOTON_SIM_AGENTS),
      ...(env.PELOTON_SIM_PORT ? { port: env.PELOTON_SIM_PORT } : {}),
      fast: env.PELOTON_SIM_FAST,
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
  await firstPeople(database.url, env.PELOTON_DEMO);
  if (env.MESOS_MASTER_URL) log(`Mesos master: ${system.masterUrl} (MESOS_MASTER_URL)`);
  log(
    system.scheduler?.leading
      ? `scheduler: this replica leads (${system.scheduler.holder})`
      : "scheduler: standing by; another replica leads",
  );

  await startPelotonApi(database.url, host);
  if (stopping) return;

  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    // /api/health tells whether this replica leads by comparing it with the lease's holder.
    ...(system.scheduler ? { PELOTON_REPLICA: system.scheduler.holder } : {}),
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    // The auth secret, when not given, is kept beside the data dir (`<dataDir>.auth-secret`).
    PELOTON_DATA_DIR: dataDir,
  };
  if (!dev && buildIsStale(repoRoot, consoleDir)) await build(childEnv);
  if (stopping) return;

  const listen = ["-p", String(port), "-H", host];
  server = runNext(dev ? ["dev", ...listen] : ["start", ...listen], childEnv);
  log(
    `console starting on http://${host.includes(":") ? `[${host}]` : host}:${port} (${((Date.now() - started) / 1000).toFixed(1)} s since launch)`,
  );
  server.on("exit", (code, signal) => {
    if (stopping) return;
    if (code) log(`the console (next-server) exited with code ${code}: stopping`);
    void shutdown(signal ? 0 : (code ?? 0));
  });
}

main().catch(fail);
