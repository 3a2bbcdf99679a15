/**
 * One PostgreSQL server process (the postmaster) on a data folder: initdb,
 * start, fast stop, and recovery of a server a dead launcher left running.
 *
 * The launcher runs the postmaster in its own process group (`detached`), so
 * a Ctrl-C in the terminal reaches only the launcher, which stops the
 * scheduler before PostgreSQL. Tests leave it in their own group, so a Ctrl-C
 * of the test runner stops it too.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StartupError } from "./errors.ts";
import type { PostgresBinaries } from "./postgres-binaries.ts";
import type { PostgresUser } from "./postgres-user.ts";
import {
  POSTGRES_STOP,
  type ProcessRef,
  processAlive,
  processCommand,
  processRef,
  stopProcess,
} from "./processes.ts";

export const USER = "postgres";
export const PASSWORD = "postgres";

export interface PostmasterOptions {
  bins: PostgresBinaries;
  dataDir: string;
  port: number;
  user: PostgresUser | undefined;
  /** Its own process group, out of reach of the terminal's Ctrl-C. */
  detached?: boolean | undefined;
  onLog?: ((line: string) => void) | undefined;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningPostmaster {
  ref: ProcessRef;
  /** Settles when the postmaster exits, for whatever reason. */
  exited: Promise<Exit>;
  /** Fast shutdown (SIGINT), escalating to SIGQUIT and SIGKILL. */
  stop: () => Promise<void>;
}

/** PostgreSQL's messages in English whatever the machine's locale: readiness is read from them. */
const ENV = { ...process.env, LC_MESSAGES: "C" };

function asUser(user: PostgresUser | undefined) {
  return user ? { uid: user.uid, gid: user.gid } : {};
}

/** The line of PostgreSQL's output that says why it failed. */
function reason(lines: readonly string[], fallback: string): string {
  const hit = [...lines].reverse().find((l) => /FATAL|PANIC|ERROR|could not|initdb: error/.test(l));
  return (hit ?? fallback).replace(/^.*?(FATAL|PANIC|ERROR):\s*/, "").trim();
}

/** Collects a child's output into lines, keeping the last few for error messages. */
function lineReader(child: ChildProcess, onLine: (line: string) => void): string[] {
  const kept: string[] = [];
  let partial = "";
  const take = (chunk: Buffer) => {
    const parts = (partial + chunk.toString("utf8")).split("\n");
    partial = parts.pop() ?? "";
    for (const line of parts) {
      kept.push(line);
      if (kept.length > 40) kept.shift();
      onLine(line);
    }
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  return kept;
}

/** Creates the cluster in an empty (or missing) data folder. */
export async function initdb(opts: Omit<PostmasterOptions, "port">): Promise<void> {
  // The password file must be readable by the user initdb runs as, and by no one else.
  const pwDir = mkdtempSync(join(tmpdir(), "peloton-initdb-"));
  const pwFile = join(pwDir, "pw");
  writeFileSync(pwFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (opts.user) {
    chownSync(pwDir, opts.user.uid, opts.user.gid);
    chownSync(pwFile, opts.user.uid, opts.user.gid);
  }
  try {
    const child = spawn(
      opts.bins.initdb,
      [
        `--pgdata=${opts.dataDir}`,
        "--auth=password",
        `--username=${USER}`,
        `--pwfile=${pwFile}`,
        "--encoding=UTF8",
        "--locale=C",
      ],
      { ...asUser(opts.user), env: ENV, stdio: ["ignore", "pipe", "pipe"] },
    );
    const lines = lineReader(child, (l) => opts.onLog?.(l));
    const exit = await new Promise<Exit | Error>((res) => {
      child.once("error", res);
      child.once("close", (code, signal) => res({ code, signal }));
    });
    if (exit instanceof Error || exit.code !== 0) {
      const why = exit instanceof Error ? exit.message : reason(lines, `exit ${exit.code}`);
      throw new StartupError(`creating the embedded PostgreSQL in ${opts.dataDir} failed: ${why}`);
    }
  } finally {
    rmSync(pwDir, { recursive: true, force: true });
  }
}

/** Starts the postmaster; resolves once it accepts connections. */
export async function startPostmaster(opts: PostmasterOptions): Promise<RunningPostmaster> {
  const child = spawn(
    opts.bins.postgres,
    [
      "-D",
      opts.dataDir,
      "-p",
      String(opts.port),
      // TCP on loopback only, no Unix socket: nothing left behind in /tmp.
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "lc_messages=C",
    ],
    {
      ...asUser(opts.user),
      env: ENV,
      detached: opts.detached === true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let ready = false;
  let markReady = () => {};
  const readyNow = new Promise<void>((r) => {
    markReady = r;
  });
  const lines = lineReader(child, (line) => {
    opts.onLog?.(line);
    if (!ready && line.includes("database system is ready to accept connections")) {
      ready = true;
      markReady();
    }
  });
  const exited = new Promise<Exit>((res) => {
    child.once("error", () => res({ code: null, signal: null }));
    child.once("exit", (code, signal) => res({ code, signal }));
  });
  const spawnError = new Promise<Error>((res) => child.once("error", res));
  const first = await Promise.race([readyNow, exited, spawnError]);
  if (!ready) {
    const why =
      first instanceof Error
        ? first.message
        : reason(lines, "it exited before accepting connections");
    throw new StartupError(
      `embedded PostgreSQL failed to start on port ${opts.port} in ${opts.dataDir}: ${why}`,
    );
  }
  const ref = processRef(child.pid ?? 0);
  return {
    ref,
    exited,
    stop: async () => {
      await stopProcess(ref, POSTGRES_STOP);
      await exited;
    },
  };
}

/**
 * A postmaster.pid whose process is gone, or is not a PostgreSQL of this
 * folder, is removed. One whose server still runs is, for the launcher
 * (which holds the folder's launcher lock: `leftover: "stop"`), a server a
 * dead launcher left behind, and is stopped; any other caller is refused.
 */
export async function clearLeftoverPostmaster(
  dataDir: string,
  log: (line: string) => void,
  leftover: "stop" | "refuse",
): Promise<void> {
  const pidFile = join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const [pidLine = "", dirLine = ""] = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(pidLine);
  const command = processAlive(pid) ? processCommand(pid) : undefined;
  // Without /proc (command "") a live pid is taken to be the server.
  const ours = command !== undefined && (command === "" || command.includes(dirLine || dataDir));
  if (!ours) {
    rmSync(pidFile, { force: true });
    return;
  }
  if (leftover === "refuse") {
    throw new StartupError(
      `a PostgreSQL (pid ${pid}) is already running in ${dataDir}: stop the program that started it first`,
    );
  }
  log(`stopping the PostgreSQL (pid ${pid}) left running in ${dataDir} by a launcher that is gone`);
  if (!(await stopProcess(processRef(pid), POSTGRES_STOP))) {
    throw new StartupError(
      `the PostgreSQL (pid ${pid}) left running in ${dataDir} does not stop: kill it (kill -9 ${pid}) and start again`,
    );
  }
}
