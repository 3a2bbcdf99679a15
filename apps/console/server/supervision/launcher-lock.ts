/**
 * One launcher per data folder. The lock is a JSON file beside the folder
 * (`.data/postgres.launcher.json`) naming the launcher, its reaper and the
 * children it started, each as pid + start time (so a reused pid is never
 * mistaken for them).
 *
 * The file is created with link(2), which fails when it exists: of two
 * launchers starting together exactly one gets it. A file whose launcher is
 * gone is stale: the next launcher moves it aside with rename(2) (again only
 * one succeeds), waits for the dead launcher's reaper to finish, stops
 * whatever that launcher left running, and takes the lock. A live owner is
 * refused with one line.
 */
import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { StartupError } from "@peloton/storage/bootstrap";
import {
  POSTGRES_STOP,
  type ProcessRef,
  processRef,
  stillRunning,
  stopProcess,
  waitForExit,
} from "@peloton/storage/processes";
import { STOP_CONSOLE, type WatchedChild } from "./protocol.ts";

export interface LockRecord {
  launcher: ProcessRef;
  reaper?: ProcessRef | undefined;
  children: WatchedChild[];
  /** What the lock guards, for messages. */
  guards: string;
  port: string;
}

export interface LauncherLock {
  readonly path: string;
  update: (change: (r: LockRecord) => void) => void;
  release: () => void;
}

function read(path: string): LockRecord | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as LockRecord;
  } catch {
    return undefined;
  }
}

function write(path: string, record: LockRecord): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(tmp, path);
}

function refuse(path: string, owner: LockRecord): never {
  throw new StartupError(
    `another launcher (pid ${owner.launcher.pid}) is already running on ${owner.guards} (port ${owner.port}): stop it first (kill ${owner.launcher.pid}), or give this one its own PELOTON_DATA_DIR, PELOTON_SIM_DIR and PORT [lock ${path}]`,
  );
}

/** Stops what a dead launcher left running, once its reaper has had its chance. */
async function clearLeftovers(stale: LockRecord, log: (line: string) => void): Promise<void> {
  if (stale.reaper && stillRunning(stale.reaper)) {
    // It is stopping them right now (the launcher died moments ago).
    await waitForExit(stale.reaper, 30_000);
  }
  for (const child of stale.children) {
    if (!stillRunning(child)) continue;
    log(
      `stopping the ${child.kind === "postgres" ? "PostgreSQL" : "console"} (pid ${child.pid}) left running by launcher ${stale.launcher.pid}, which is gone`,
    );
    const stopped =
      child.kind === "postgres"
        ? await stopProcess(child, POSTGRES_STOP)
        : await stopProcess(child, STOP_CONSOLE, { group: true });
    if (!stopped) {
      throw new StartupError(
        `the ${child.kind} process ${child.pid} left by a dead launcher does not stop: kill -9 ${child.pid} and start again`,
      );
    }
  }
}

export async function acquireLauncherLock(
  path: string,
  facts: { guards: string; port: string },
  log: (line: string) => void,
): Promise<LauncherLock> {
  let record: LockRecord = { launcher: processRef(process.pid), children: [], ...facts };
  const mine = `${path}.${process.pid}.new`;
  writeFileSync(mine, `${JSON.stringify(record, null, 2)}\n`);
  let stale: LockRecord | undefined;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(mine, path);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 5) throw err;
      }
      const owner = read(path);
      if (owner && stillRunning(owner.launcher)) refuse(path, owner);
      // Stale (or unreadable: a launcher that died mid-write never linked it, so it is junk).
      const aside = `${path}.${process.pid}.stale`;
      try {
        renameSync(path, aside);
      } catch {
        continue; // another launcher moved it first; look again
      }
      const moved = read(aside);
      if (moved && stillRunning(moved.launcher)) {
        // A live launcher took the lock between our read and the rename: give
        // it back (link: never over a lock yet another launcher made meanwhile).
        try {
          linkSync(aside, path);
        } catch {
          // Someone holds it again: that one refuses the rest.
        }
        rmSync(aside, { force: true });
        refuse(path, moved);
      }
      rmSync(aside, { force: true });
      stale = moved ?? stale;
    }
  } finally {
    rmSync(mine, { force: true });
  }
  // Ours now: nobody else will start on this folder while we clear up.
  if (stale) await clearLeftovers(stale, log);
  return {
    path,
    update: (change) => {
      change(record);
      write(path, record);
    },
    release: () => {
      // Only our own lock: never one a later launcher took over.
      const now = read(path);
      if (now && now.launcher.pid === process.pid) unlinkSync(path);
      record = { ...record, children: [] };
    },
  };
}
