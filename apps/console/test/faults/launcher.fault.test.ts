/**
 * The launcher owns its children: kill -9 of the launcher (and of its reaper
 * too) never leaves PostgreSQL or next-server running, the next start comes
 * up on its own, a second launcher on the same folder is refused, and a
 * killed postmaster is restarted. One data folder across the steps, as a
 * user's `.data` is across restarts; each step starts from what the last
 * one left.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  alive,
  eventually,
  freePort,
  healthy,
  interrupt,
  type Launcher,
  readLock,
  scratchDirs,
  serversOf,
  startLauncher,
  waitHealthy,
} from "./support/launcher.ts";

const dirs = scratchDirs("fault-launcher");
/**
 * A first start (initdb, migrations) on 2 busy cores: the root test's install
 * and build may run beside this file. A restart must still make 60 s.
 */
const START_MS = 120_000;
let port: number;
let current: Launcher | undefined;

const launcherPid = () => {
  const lock = readLock(dirs);
  if (!lock) throw new Error("no launcher lock file");
  return lock.launcher.pid;
};

/**
 * Starts a launcher and waits until it serves: its own next-server (recorded
 * in the lock it took) answers, not one a dead launcher left on the port.
 */
async function startAndWait(): Promise<Launcher> {
  const ms = START_MS;
  const before = readLock(dirs)?.launcher.pid;
  const launcher = startLauncher(dirs, port);
  current = launcher;
  await Promise.race([
    eventually(
      "the new launcher runs its console",
      ms,
      () => readLock(dirs),
      (lock) =>
        lock !== undefined &&
        lock.launcher.pid !== before &&
        lock.children.some((c) => c.kind === "console"),
    ),
    launcher.exited.then((code) => {
      throw new Error(`the launcher exited (${code}):\n${launcher.output()}`);
    }),
  ]);
  await waitHealthy(launcher, ms);
  return launcher;
}

/** One postmaster on the data folder and one next-server: nothing doubled, nothing orphaned. */
function expectOneOfEach() {
  const servers = serversOf(dirs);
  expect(servers.postgres, "postmasters on the data folder").toHaveLength(1);
  expect(servers.console.length, "next-server processes").toBeGreaterThanOrEqual(1);
  const lock = readLock(dirs);
  expect(servers.postgres).toEqual(
    lock?.children.filter((c) => c.kind === "postgres").map((c) => c.pid),
  );
}

afterAll(async () => {
  if (current && current.proc.exitCode === null) {
    const lock = readLock(dirs);
    if (lock && alive(lock.launcher.pid)) process.kill(lock.launcher.pid, "SIGINT");
    await Promise.race([current.exited, new Promise((r) => setTimeout(r, 30_000))]);
  }
  // Whatever a failed step left: never leak servers into the next test file.
  const left = serversOf(dirs);
  for (const pid of [...left.console, ...left.postgres]) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  dirs.dispose();
}, 60_000);

describe("the launcher owns its children", () => {
  it("kill -9 of the launcher (after one of its reaper): PostgreSQL and next-server stop with it; the next start comes up", async () => {
    port = await freePort();
    const first = await startAndWait();
    expectOneOfEach();
    const before = serversOf(dirs);
    // A reaper killed on its own is replaced, and the replacement does the job below.
    const reaper = readLock(dirs)?.reaper?.pid ?? 0;
    process.kill(reaper, "SIGKILL");
    await eventually(
      "a new reaper recorded",
      15_000,
      () => readLock(dirs)?.reaper?.pid,
      (pid) => pid !== undefined && pid !== reaper && alive(pid),
    );

    process.kill(launcherPid(), "SIGKILL");
    await first.exited;
    // The reaper stops them; nobody had to.
    await eventually(
      "PostgreSQL and next-server of the dead launcher gone",
      30_000,
      () => [...before.postgres, ...before.console].filter(alive),
      (left) => left.length === 0,
    );
    expect(serversOf(dirs)).toEqual({ postgres: [], console: [] });

    const t0 = Date.now();
    await startAndWait();
    expect(Date.now() - t0, "the restart came up within 60 s").toBeLessThan(60_000);
    expectOneOfEach();
  }, 240_000);

  it("kill -9 of the launcher and of its reaper: the next start stops what they left and comes up", async () => {
    const lock = readLock(dirs);
    expect(lock?.reaper).toBeDefined();
    const left = serversOf(dirs);
    // Frozen first, so the launcher cannot start a new reaper; then the reaper,
    // so nothing cleans up: a leftover PostgreSQL and next-server stay.
    const launcher = launcherPid();
    process.kill(launcher, "SIGSTOP");
    process.kill(lock?.reaper?.pid ?? 0, "SIGKILL");
    process.kill(launcher, "SIGKILL");
    await current?.exited;
    await new Promise((r) => setTimeout(r, 1_000));
    expect(left.postgres.filter(alive), "leftover postmaster").toHaveLength(1);
    // The orphaned console still answers: the situation a user finds.
    expect(await healthy(current?.url ?? "")).toBe(true);

    const next = await startAndWait();
    expect(next.output()).toMatch(/stopping the (PostgreSQL|console) \(pid \d+\) left running/);
    for (const pid of [...left.postgres, ...left.console]) expect(alive(pid)).toBe(false);
    expectOneOfEach();
  }, 180_000);

  it("a second launcher on the same data folder is refused with one line", async () => {
    const second = startLauncher(dirs, await freePort());
    const code = await second.exited;
    expect(code).not.toBe(0);
    const lines = second
      .output()
      .trim()
      .split("\n")
      .filter((l) => l.startsWith("peloton:"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /another launcher \(pid \d+\) is already running on .*: stop it first/,
    );
    expect(second.output()).not.toMatch(/\n\s+at /); // no stack
    // The first one is untouched.
    expect(await healthy(current?.url ?? "")).toBe(true);
    expectOneOfEach();
  }, 60_000);

  it("kill -9 of the embedded postmaster: the launcher restarts it and the console answers again", async () => {
    const [postmaster] = serversOf(dirs).postgres;
    expect(postmaster).toBeDefined();
    process.kill(postmaster ?? 0, "SIGKILL");
    const restarted = await eventually(
      "a new postmaster recorded",
      30_000,
      () => readLock(dirs)?.children.find((c) => c.kind === "postgres")?.pid,
      (pid) => pid !== undefined && pid !== postmaster && alive(pid),
    );
    await eventually("console answers again", 30_000, () => healthy(current?.url ?? ""), Boolean);
    expect(current?.output()).toMatch(/PostgreSQL \(pid \d+\) exited unexpectedly/);
    expect(serversOf(dirs).postgres).toEqual([restarted]);
  }, 90_000);

  it("Ctrl-C stops PostgreSQL and next-server and releases the lock", async () => {
    const before = serversOf(dirs);
    const code = await interrupt(current as Launcher, launcherPid());
    expect(code).toBe(0);
    for (const pid of [...before.postgres, ...before.console]) expect(alive(pid)).toBe(false);
    expect(readLock(dirs)).toBeUndefined();
  }, 60_000);
});
