/**
 * The launcher's children (embedded PostgreSQL, next-server), known to the
 * reaper (stops them if the launcher dies) and to the lock file (the next
 * launcher stops them if the reaper died too).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { type ProcessRef, processRef } from "@peloton/storage/processes";
import type { LauncherLock } from "./launcher-lock.ts";
import type { ChildKind, ReaperMessage, WatchedChild } from "./protocol.ts";

export interface Children {
  watch: (kind: ChildKind, pid: number) => void;
  forget: (pid: number) => void;
  /** After a clean stop: the reaper exits with nothing to do. */
  close: () => void;
}

export function superviseChildren(opts: {
  repoRoot: string;
  lock: LauncherLock | undefined;
  log: (line: string) => void;
}): Children {
  const watched = new Map<number, WatchedChild>();
  let closed = false;
  let reaper: ChildProcess;

  const send = (msg: ReaperMessage) => {
    if (reaper.stdin?.writable) reaper.stdin.write(`${JSON.stringify(msg)}\n`);
  };
  const record = () =>
    opts.lock?.update((r) => {
      r.children = [...watched.values()];
      r.reaper = reaper.pid ? processRef(reaper.pid) : undefined;
    });

  const start = () => {
    reaper = spawn(
      process.execPath,
      ["--import", "tsx", join(import.meta.dirname, "reaper.ts")],
      // Own process group: a Ctrl-C for the launcher must not end the reaper first.
      { cwd: opts.repoRoot, detached: true, stdio: ["pipe", "ignore", "inherit"] },
    );
    reaper.unref();
    reaper.stdin?.on("error", () => undefined);
    for (const child of watched.values()) send({ watch: child });
    const startedAt = Date.now();
    reaper.once("exit", (code, signal) => {
      if (closed) return;
      // Without it a kill -9 of the launcher would leave orphans: start another
      // (after a second if it died at once, so a broken one does not spin).
      opts.log(`the reaper exited (${signal ?? `code ${code}`}); starting a new one`);
      setTimeout(
        () => {
          if (closed) return;
          start();
          record();
        },
        Date.now() - startedAt < 1_000 ? 1_000 : 0,
      );
    });
  };
  start();
  record();

  return {
    watch: (kind, pid) => {
      const ref: ProcessRef = processRef(pid);
      const child: WatchedChild = { kind, ...ref };
      watched.set(pid, child);
      send({ watch: child });
      record();
    },
    forget: (pid) => {
      if (!watched.delete(pid)) return;
      send({ forget: pid });
      record();
    },
    close: () => {
      closed = true;
      reaper.stdin?.end();
    },
  };
}
