import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processRef } from "@peloton/storage/processes";
import { afterEach, describe, expect, it } from "vitest";
import { acquireLauncherLock } from "../server/supervision/launcher-lock.ts";

// One launcher per data folder; a dead launcher's lock is taken over and what it left is stopped.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function lockPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "peloton-lock-"));
  dirs.push(dir);
  return join(dir, "postgres.launcher.json");
}

/** A process that has exited: its pid is free (and not reused within the test). */
async function deadPid(): Promise<number> {
  const child = spawn("true");
  await new Promise((r) => child.once("exit", r));
  return child.pid ?? 0;
}

const facts = { guards: "/data/postgres", port: "3000" };
const quiet = () => {};

describe("the launcher lock", () => {
  it("is taken when free, names this launcher, and is removed on release", async () => {
    const path = lockPath();
    const lock = await acquireLauncherLock(path, facts, quiet);
    const record = JSON.parse(readFileSync(path, "utf8"));
    expect(record.launcher.pid).toBe(process.pid);
    lock.release();
    expect(() => readFileSync(path)).toThrow();
  });

  it("refuses a second launcher while the first lives, in one line naming its pid", async () => {
    const path = lockPath();
    const sleeper = spawn("sleep", ["30"]);
    try {
      writeFileSync(
        path,
        JSON.stringify({ launcher: processRef(sleeper.pid ?? 0), children: [], ...facts }),
      );
      await expect(acquireLauncherLock(path, facts, quiet)).rejects.toThrow(
        new RegExp(
          `^another launcher \\(pid ${sleeper.pid}\\) is already running on /data/postgres`,
        ),
      );
    } finally {
      sleeper.kill("SIGKILL");
    }
  });

  it("takes over a dead launcher's lock and stops the console it left running", async () => {
    const path = lockPath();
    // A leftover "console": its own process group, as the launcher starts next-server.
    const leftover = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    const exited = new Promise((r) => leftover.once("exit", (_code, signal) => r(signal)));
    writeFileSync(
      path,
      JSON.stringify({
        launcher: { pid: await deadPid() },
        children: [{ kind: "console", ...processRef(leftover.pid ?? 0) }],
        ...facts,
      }),
    );
    const notes: string[] = [];
    const lock = await acquireLauncherLock(path, facts, (l) => notes.push(l));
    expect(await exited).toBe("SIGTERM");
    expect(notes.join("\n")).toMatch(/stopping the console \(pid \d+\) left running by launcher/);
    expect(JSON.parse(readFileSync(path, "utf8")).launcher.pid).toBe(process.pid);
    lock.release();
  });

  it("does not stop a process that merely reuses a recorded pid (its start time differs)", async () => {
    const path = lockPath();
    const bystander = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    const ended = new Promise((r) => bystander.once("exit", () => r("ended")));
    try {
      const ref = processRef(bystander.pid ?? 0);
      writeFileSync(
        path,
        JSON.stringify({
          launcher: { pid: await deadPid() },
          children: [{ kind: "console", pid: ref.pid, startTime: (ref.startTime ?? 0) - 1 }],
          ...facts,
        }),
      );
      const lock = await acquireLauncherLock(path, facts, quiet);
      const after = await Promise.race([ended, new Promise((r) => setTimeout(r, 500, "alive"))]);
      expect(after).toBe("alive");
      lock.release();
    } finally {
      bystander.kill("SIGKILL");
    }
  });
});
