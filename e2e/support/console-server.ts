/**
 * A second console server for specs that take a server away (the outage
 * spec): `next start` of the suite's own build, on its own port, against the
 * suite's database — no scheduler, no mesos-sim, those stay with the suite's
 * server (serve.ts), which keeps the cluster moving while this one is down.
 * It runs in its own process group, so that a kill takes all of it at once,
 * as a crash or an OOM kill would.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { AUTH_ENV } from "./auth-env.ts";

const repoRoot = resolve(import.meta.dirname, "../..");
const nextBin = resolve(repoRoot, "node_modules/next/dist/bin/next");

/** The extra server's port: next to the suite's (E2E_PORT, 3100 by default), never a fixed number. */
export function extraConsolePort(): number {
  return Number(process.env.E2E_PORT ?? 3100) + 1;
}

export class ConsoleServer {
  private child: ChildProcess | undefined;
  readonly url: string;

  constructor(
    private readonly port: number,
    private readonly databaseUrl: string,
    private readonly logFile = resolve(repoRoot, `test-results/e2e-console-${port}.log`),
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  /**
   * Starts `next start` and returns once it answers the health procedure
   * (with `healthy: false`, once it answers at all: a server whose database
   * is unreachable fails its health check).
   */
  async start({ healthy = true, timeoutMs = 60_000 } = {}): Promise<void> {
    if (this.child) throw new Error(`the console on port ${this.port} is already running`);
    mkdirSync(dirname(this.logFile), { recursive: true });
    const log = createWriteStream(this.logFile, { flags: "a" });
    const child = spawn(
      process.execPath,
      [nextBin, "start", "-p", String(this.port), "-H", "127.0.0.1"],
      {
        cwd: resolve(repoRoot, "apps/console"),
        env: {
          ...process.env,
          DATABASE_URL: this.databaseUrl,
          // The suite's auth secret: the specs' session cookie works here too.
          ...AUTH_ENV,
          NEXT_TELEMETRY_DISABLED: "1",
          PORT: String(this.port),
        },
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    this.child = child;
    const exited = new Promise<never>((_, reject) =>
      child.once("exit", (code, signal) =>
        reject(new Error(`next start exited (${signal ?? code}); see ${this.logFile}`)),
      ),
    );
    exited.catch(() => undefined);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const up = await Promise.race([this.answers(healthy), exited]);
      if (up) return;
      if (Date.now() > deadline)
        throw new Error(`the console on port ${this.port} did not answer in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** SIGKILL of the whole process group: the server vanishes mid-stream. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    this.child = undefined;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once("exit", r));
    process.kill(-child.pid, "SIGKILL");
    await gone;
  }

  private async answers(healthy: boolean): Promise<boolean> {
    try {
      const res = await fetch(`${this.url}/api/trpc/system.health`, {
        signal: AbortSignal.timeout(2_000),
      });
      return res.ok || !healthy;
    } catch {
      return false;
    }
  }
}
