/**
 * The real launcher (`npx tsx apps/console/server/start.ts`), started as a
 * user starts it, with its own data folders and port; and what /proc says
 * about the processes it and its predecessors left.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const repoRoot = resolve(import.meta.dirname, "../../../../..");

export interface Dirs {
  root: string;
  dataDir: string;
  simDir: string;
  lockFile: string;
}

/** Fresh folders for one launcher's state, removed by `dispose`. */
export function scratchDirs(prefix: string): Dirs & { dispose: () => void } {
  const root = mkdtempSync(join(tmpdir(), `peloton-${prefix}-`));
  // The embedded PostgreSQL runs as `postgres` when the tests run as root.
  chmodSync(root, 0o755);
  const dataDir = join(root, "postgres");
  return {
    root,
    dataDir,
    simDir: join(root, "mesos-sim"),
    lockFile: `${dataDir}.launcher.json`,
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
  });
}

export interface Launcher {
  /** The `npx` process; the launcher itself is `launcherPid()`. */
  proc: ChildProcess;
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  exited: Promise<number | null>;
}

/** The first admin's password in every launcher these tests start (PELOTON_ADMIN_PASSWORD). */
export const FAULT_ADMIN_PASSWORD = "fault-admin-password-1";

/**
 * Signs in as that admin, as the sign-in page does: the session cookie, and
 * the Origin a cookie-authenticated mutation must carry (the CSRF check).
 * The session outlives a restart (the secret is kept beside the data folder).
 */
export async function adminHeaders(baseUrl: string): Promise<Record<string, string>> {
  const res = await fetch(`${baseUrl}/api/auth/sign-in/username`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({ username: "admin", password: FAULT_ADMIN_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in as admin: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { cookie, origin: baseUrl };
}

export function startLauncher(
  dirs: Dirs,
  port: number,
  env: Record<string, string> = {},
  cwd = repoRoot,
): Launcher {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    // Two launchers at a time (and a developer's console) never share Peloton's gRPC port.
    PELOTON_GRPC_PORT: "0",
    PELOTON_DATA_DIR: dirs.dataDir,
    PELOTON_SIM_DIR: dirs.simDir,
    PELOTON_SIM_FAST: "1",
    PELOTON_LOG_LEVEL: "warn",
    PELOTON_ADMIN_PASSWORD: FAULT_ADMIN_PASSWORD,
    ...env,
  };
  // The embedded PostgreSQL and the in-process mesos-sim, whatever the test run uses.
  delete childEnv.DATABASE_URL;
  delete childEnv.MESOS_MASTER_URL;
  const proc = spawn("npx", ["tsx", "apps/console/server/start.ts"], {
    cwd,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  proc.stderr?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | null>((res) => proc.once("exit", (code) => res(code)));
  return { proc, url: `http://127.0.0.1:${port}`, output: () => out, exited };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds; fails with `what` and the last value after `ms`. */
export async function eventually<T>(
  what: string,
  ms: number,
  probe: () => Promise<T> | T,
  check: (value: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: T | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      if (check(last)) return last;
    } catch (err) {
      lastError = err;
    }
    await sleep(250);
  }
  throw new Error(
    `${what}: not within ${ms / 1000} s (last: ${JSON.stringify(last) ?? String(lastError)})`,
  );
}

/** Whether the console's health procedure answers (HTTP 200). */
export async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/api/trpc/system.health`, {
      signal: AbortSignal.timeout(5_000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

/** Waits for the console to answer, failing early with the launcher's output if it exits. */
export async function waitHealthy(l: Launcher, ms: number): Promise<void> {
  const gaveUp = l.exited.then((code) => {
    throw new Error(`the launcher exited (${code}) before the console answered:\n${l.output()}`);
  });
  await Promise.race([eventually("console answers", ms, () => healthy(l.url), Boolean), gaveUp]);
}

export interface LockFile {
  launcher: { pid: number };
  reaper?: { pid: number };
  children: { kind: "postgres" | "console"; pid: number }[];
}

export function readLock(dirs: Dirs): LockFile | undefined {
  try {
    return JSON.parse(readFileSync(dirs.lockFile, "utf8")) as LockFile;
  } catch {
    return undefined;
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every process's pid, command line and environment (what /proc lets us read). */
function processes(): { pid: number; cmd: string; env: string[] }[] {
  const found: { pid: number; cmd: string; env: string[] }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").trim();
      const env = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      found.push({ pid: Number(entry), cmd, env });
    } catch {
      // Gone while we looked, or a kernel thread.
    }
  }
  return found;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/**
 * PostgreSQL servers on a folder under `root`. A backend just forked still
 * shows its postmaster's command line until it names itself, so a match whose
 * parent also matches is that postmaster's child, not a second server.
 */
function postmasters(all: { pid: number; cmd: string }[], root: string): number[] {
  const matches = all.filter((p) => /\/bin\/postgres -D /.test(p.cmd) && p.cmd.includes(root));
  const pids = new Set(matches.map((p) => p.pid));
  return matches.filter((p) => !pids.has(parentOf(p.pid) ?? -1)).map((p) => p.pid);
}

/**
 * The servers a launcher on `dirs` runs (or left behind): PostgreSQL's
 * postmasters on its data folder, and next-servers whose environment names
 * it (the launcher passes its own environment on to next).
 */
export function serversOf(dirs: Dirs): { postgres: number[]; console: number[] } {
  const mark = `PELOTON_DATA_DIR=${dirs.dataDir}`;
  const all = processes();
  return {
    postgres: postmasters(all, dirs.root),
    console: all
      .filter(
        (p) =>
          p.env.includes(mark) && /^next-(server|start|build)|\/next\/dist\/bin\/next/.test(p.cmd),
      )
      .map((p) => p.pid),
  };
}

/** Task processes of a job, by instance: the process-group leaders the sim started. */
export function taskProcesses(jobId: string): Map<number, number[]> {
  const byInstance = new Map<number, number[]>();
  for (const p of processes()) {
    if (!p.env.includes(`PELOTON_JOB_ID=${jobId}`)) continue;
    let pgid: number;
    try {
      const stat = readFileSync(`/proc/${p.pid}/stat`, "utf8");
      pgid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
    } catch {
      continue;
    }
    if (pgid !== p.pid) continue; // the shell's children: one task is one group
    const instance = Number(
      p.env.find((e) => e.startsWith("PELOTON_INSTANCE_ID="))?.split("=")[1] ?? "-1",
    );
    byInstance.set(instance, [...(byInstance.get(instance) ?? []), p.pid]);
  }
  return byInstance;
}

/** Stops a launcher as Ctrl-C does, and waits for it to exit. */
export async function interrupt(l: Launcher, launcherPid: number): Promise<number | null> {
  process.kill(launcherPid, "SIGINT");
  return l.exited;
}
