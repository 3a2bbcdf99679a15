/**
 * PostgreSQL refuses to run as root, so as root the embedded server runs as
 * the `postgres` system user (created when missing). That user must reach
 * the binaries and the data folder; a clone in a folder only root may enter
 * (`mktemp -d`, /root/...) hides both. Rather than loosen the permissions of
 * the user's folders, what it cannot reach is placed under /var/lib/peloton
 * (root-owned, world-readable):
 *
 *   binaries  copied once per package version to /var/lib/peloton/postgres-<version>
 *   data      /var/lib/peloton/data/<hash of the data folder's path>, owned by
 *             postgres, with a symbolic link at the data folder's path, so the
 *             folder the user configured still names it and the next start
 *             follows the link
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { StartupError } from "./errors.ts";
import { binariesAt, type PostgresBinaries } from "./postgres-binaries.ts";

export interface PostgresUser {
  uid: number;
  gid: number;
}

/** Where root keeps what the postgres user must reach. */
export const ROOT_PLACE = "/var/lib/peloton";

function idOf(flag: "-u" | "-g"): number | undefined {
  const r = spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  const n = Number.parseInt(r.stdout ?? "", 10);
  return r.status === 0 && Number.isInteger(n) ? n : undefined;
}

function run(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: "ignore" }).status === 0;
}

/** The user PostgreSQL runs as: undefined when we are not root (it runs as us). */
export function postgresUser(log: (line: string) => void): PostgresUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  let uid = idOf("-u");
  if (uid === undefined) {
    const made =
      (run("groupadd", ["--system", "postgres"]) || idOf("-g") !== undefined) &&
      run("useradd", ["--system", "-g", "postgres", "-M", "-s", "/usr/sbin/nologin", "postgres"]);
    uid = idOf("-u");
    if (!made || uid === undefined) {
      throw new StartupError(
        "PostgreSQL cannot run as root and there is no `postgres` user to run it (useradd failed): create one (useradd --system postgres) or set DATABASE_URL",
      );
    }
    log("created the `postgres` system user: PostgreSQL does not run as root");
  }
  const gid = idOf("-g");
  if (gid === undefined)
    throw new StartupError("the `postgres` user has no group (id -g postgres)");
  return { uid, gid };
}

/** Whether `user` can run the program (a spawn as that user succeeds). */
function canExecute(user: PostgresUser, file: string): boolean {
  const r = spawnSync(file, ["--version"], { uid: user.uid, gid: user.gid, stdio: "ignore" });
  return !r.error && r.status === 0;
}

/** Whether `user` can enter the folder (search permission on every folder of the path). */
function canEnter(user: PostgresUser, dir: string): boolean {
  const r = spawnSync("/bin/sh", ["-c", 'cd "$1"', "sh", dir], {
    uid: user.uid,
    gid: user.gid,
    stdio: "ignore",
  });
  return !r.error && r.status === 0;
}

/** Makes a copied tree readable (and its folders enterable) by everyone, whatever the umask. */
function openToAll(path: string): void {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path)) openToAll(join(path, entry));
  } else {
    chmodSync(path, (st.mode & 0o777) | 0o444);
  }
}

/** The binaries, copied where `user` can run them when it cannot run them in place. */
export function reachableBinaries(
  user: PostgresUser | undefined,
  bins: PostgresBinaries,
  log: (line: string) => void,
): PostgresBinaries {
  if (!user || (canExecute(user, bins.initdb) && canExecute(user, bins.postgres))) return bins;
  const dest = join(ROOT_PLACE, `postgres-${bins.version}`);
  const copy = binariesAt(dest, bins.version);
  if (!existsSync(copy.postgres)) {
    try {
      mkdirSync(ROOT_PLACE, { recursive: true, mode: 0o755 });
      chmodSync(ROOT_PLACE, 0o755);
      // Copied beside, then renamed: a half-finished copy is never used.
      const tmp = `${dest}.tmp-${process.pid}`;
      rmSync(tmp, { recursive: true, force: true });
      cpSync(bins.root, tmp, { recursive: true, verbatimSymlinks: true });
      openToAll(tmp);
      try {
        renameSync(tmp, dest);
      } catch (err) {
        // Another launcher's copy landed first: use that one.
        rmSync(tmp, { recursive: true, force: true });
        if (!existsSync(copy.postgres)) throw err;
      }
    } catch (err) {
      throw new StartupError(
        `the postgres user cannot reach ${bins.root} and copying the PostgreSQL binaries to ${dest} failed (${(err as Error).message}): clone into a folder other users can enter, or set DATABASE_URL`,
      );
    }
    log(`PostgreSQL binaries copied to ${dest}: the postgres user cannot reach ${bins.root}`);
  }
  if (!canExecute(user, copy.postgres)) {
    throw new StartupError(
      `the postgres user cannot run ${copy.postgres}: make ${ROOT_PLACE} readable by all (chmod -R a+rX), or set DATABASE_URL`,
    );
  }
  return copy;
}

/**
 * The folder PostgreSQL keeps its data in for the configured `dataDir`:
 * `dataDir` itself when `user` can reach it, else a folder under
 * /var/lib/peloton/data that `dataDir` links to. The folder exists and is
 * owned by `user` on return.
 */
export function reachableDataDir(
  user: PostgresUser | undefined,
  dataDir: string,
  log: (line: string) => void,
): string {
  const configured = resolve(dataDir);
  let actual = configured;
  if (user) {
    const link = lstatSync(configured, { throwIfNoEntry: false });
    if (link?.isSymbolicLink()) {
      // An earlier start placed the data elsewhere: follow its link.
      if (!existsSync(configured)) {
        throw new StartupError(
          `${configured} links to a data folder that no longer exists: remove the link to start with a new database`,
        );
      }
      actual = realpathSync(configured);
    } else if (!canEnter(user, dirname(configured))) {
      actual = relocate(configured, log);
    }
  }
  mkdirSync(actual, { recursive: true, mode: 0o700 });
  if (user) chownSync(actual, user.uid, user.gid);
  return actual;
}

function relocate(configured: string, log: (line: string) => void): string {
  if (existsSync(configured)) {
    if (readdirSync(configured).length > 0) {
      throw new StartupError(
        `the postgres user cannot reach the data folder ${configured}: move it to a folder every user may enter and set PELOTON_DATA_DIR, or set DATABASE_URL`,
      );
    }
    rmSync(configured, { recursive: true });
  }
  const hash = createHash("sha256").update(configured).digest("hex").slice(0, 16);
  const target = join(ROOT_PLACE, "data", hash);
  try {
    mkdirSync(join(ROOT_PLACE, "data"), { recursive: true, mode: 0o755 });
    chmodSync(ROOT_PLACE, 0o755);
    chmodSync(join(ROOT_PLACE, "data"), 0o755);
    // Left by a data folder whose link was deleted (rm -rf .data): deleting
    // the link was deleting the database, so it starts afresh.
    if (existsSync(target)) rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { mode: 0o700 });
    symlinkSync(target, configured, "dir");
  } catch (err) {
    throw new StartupError(
      `the postgres user cannot reach ${dirname(configured)} and placing the data in ${target} failed (${(err as Error).message}): set PELOTON_DATA_DIR to a folder every user may enter, or set DATABASE_URL`,
    );
  }
  log(
    `the postgres user cannot reach ${dirname(configured)}: PostgreSQL's data is in ${target} (${configured} links to it)`,
  );
  return target;
}
