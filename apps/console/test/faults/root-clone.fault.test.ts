/**
 * As root, a clone in a folder only root may enter (`mktemp -d`), then
 * `npm install && npm start`: the console answers. The embedded PostgreSQL
 * runs as the `postgres` user, who cannot reach that folder; the launcher
 * places its binaries and data where it can (postgres-user.ts) and says so.
 * Clones the committed HEAD of this repository; slow (install and build).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { alive, freePort, healthy, repoRoot } from "./support/launcher.ts";

const isRoot = process.getuid?.() === 0;
const folder = mkdtempSync(join(tmpdir(), "peloton-clone-"));
const clone = join(folder, "peloton");
const dataLink = join(clone, ".data", "postgres");
let relocated: string | undefined;
let launcherPid: number | undefined;

afterAll(async () => {
  if (launcherPid && alive(launcherPid)) {
    process.kill(launcherPid, "SIGINT");
    const deadline = Date.now() + 30_000;
    while (alive(launcherPid) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
  }
  if (relocated) rmSync(relocated, { recursive: true, force: true });
  // A clone with its node_modules takes a minute to delete on a busy disk: in the background.
  spawn("rm", ["-rf", folder], { detached: true, stdio: "ignore" }).unref();
}, 60_000);

it.skipIf(!isRoot)(
  "as root in a private folder: git clone, npm install, npm start, and the console answers",
  async () => {
    expect(statSync(folder).mode & 0o077).toBe(0); // only root may enter
    execFileSync("git", ["clone", "--quiet", repoRoot, clone], { stdio: "inherit" });
    const env: NodeJS.ProcessEnv = { ...process.env, CI: "true", NEXT_TELEMETRY_DISABLED: "1" };
    delete env.DATABASE_URL;
    delete env.MESOS_MASTER_URL;
    delete env.PELOTON_DATA_DIR;
    delete env.PELOTON_SIM_DIR;
    execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], {
      cwd: clone,
      env,
      stdio: ["ignore", "ignore", "inherit"],
    });

    const port = await freePort();
    const proc = spawn("npm", ["start"], {
      cwd: clone,
      env: {
        ...env,
        PORT: String(port),
        PELOTON_GRPC_PORT: "0",
        PELOTON_SIM_FAST: "1",
        PELOTON_LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    proc.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    proc.stderr.on("data", (c: Buffer) => {
      out += c.toString();
    });
    const exited = new Promise<number | null>((r) => proc.once("exit", r));
    const url = `http://127.0.0.1:${port}`;
    const answered = (async () => {
      const deadline = Date.now() + 600_000;
      while (Date.now() < deadline) {
        if (await healthy(url)) return true;
        await new Promise((r) => setTimeout(r, 1_000));
      }
      return false;
    })();
    const first = await Promise.race([answered, exited.then(() => "exited" as const)]);
    const lockFile = `${dataLink}.launcher.json`;
    if (existsSync(lockFile)) {
      launcherPid = (
        JSON.parse(execFileSync("cat", [lockFile], { encoding: "utf8" })) as {
          launcher: { pid: number };
        }
      ).launcher.pid;
    }
    if (existsSync(dataLink)) relocated = realpathSync(dataLink);
    expect(first, out).toBe(true);
    // The postgres user cannot enter the clone: the data went where it can, and the log says so.
    expect(out).toMatch(
      /the postgres user cannot reach .*: PostgreSQL's data is in \/var\/lib\/peloton\/data\//,
    );
    expect(relocated).toMatch(/^\/var\/lib\/peloton\/data\//);

    process.kill(launcherPid ?? 0, "SIGINT");
    expect(await exited).toBe(0);
  },
  900_000,
);
