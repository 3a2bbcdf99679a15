/**
 * The package arrows of shared/design/ARCHITECTURE.md (drawn in
 * docs/architecture.md), as data the import check reads.
 */

/** The workspace packages, by folder. */
export const PACKAGES = {
  engine: "packages/engine",
  storage: "packages/storage",
  mesos: "packages/mesos",
  scheduler: "packages/scheduler",
  api: "packages/api",
  "peloton-api": "packages/peloton-api",
  cli: "packages/cli",
  console: "apps/console",
} as const;

export type PackageName = keyof typeof PACKAGES;

/**
 * The workspace package of test helpers shared across packages
 * (`@peloton/test-support`). It is no layer of its own: each folder under its
 * `src/` is test support of the package it is named after
 * (`src/storage/` helps test what storage reaches, `src/api/` what the API
 * does), imported as `@peloton/test-support/<package>/<file>.ts` and held to
 * that package's test rules. Production code never imports it.
 */
export const TEST_SUPPORT = "packages/test-support";

/**
 * Where production code sits in the layering. Each package is one layer,
 * except the console: its server folder is the composition root (it starts
 * PostgreSQL, the scheduler and Next), its UI is everything else.
 */
export type Layer = Exclude<PackageName, "console"> | "console-ui" | "console-server";

/**
 * What each layer's production code may import, besides itself. `engine` is
 * the vocabulary every package may share; `api` reaches `storage` for reads
 * and `scheduler` for writes; `peloton-api` (Peloton's gRPC and YARPC API)
 * calls the tRPC router only; the console UI and the CLI see the system only
 * through the API (the console's route /api/v1 serves `peloton-api`); the console's server folder, the composition root, starts
 * PostgreSQL (storage's start-up and process helpers) and the scheduler;
 * nothing imports the console.
 */
export const MAY_IMPORT: Record<Layer, readonly PackageName[]> = {
  engine: [],
  storage: ["engine"],
  mesos: ["engine"],
  scheduler: ["engine", "storage", "mesos"],
  api: ["engine", "storage", "scheduler"],
  "peloton-api": ["engine", "api"],
  cli: ["engine", "api"],
  "console-ui": ["engine", "api", "peloton-api"],
  "console-server": ["engine", "api", "peloton-api", "scheduler", "storage"],
};

/**
 * Folders of a package whose files import downward only, listed top to
 * bottom, by the package's source folder. A file in one folder may import its
 * own folder and those below it; a file directly in the source folder (the
 * package's index) sits above them all. A folder may be listed before it
 * exists (a branch adding it); a folder that exists unlisted fails the check,
 * so each new one is placed on purpose.
 *
 * The scheduler's, after Peloton's components (docs/architecture.md): start-up
 * and the demo data above the assembly of a replica, the identity service
 * beside it, then the job manager, placement, the resource manager (with its
 * pools and preemption) and the host manager, each using only those below
 * it; the task writing they all share, then the logger, loops and leader
 * election at the bottom.
 */
export const FOLDER_LAYERS: Readonly<Record<string, readonly string[]>> = {
  "packages/scheduler/src": [
    "boot",
    "demo",
    "assembly",
    "identity",
    "jobmgr",
    "placement",
    "resmgr",
    "hostmgr",
    "taskwriter",
    "common",
  ],
};

export type Rule =
  /** Production code imports a package its layer may not. */
  | "direction"
  /** Test or benchmark code imports a package above its own (or the console). */
  | "test-direction"
  /** A relative path into another workspace package instead of its `@peloton/<name>`. */
  | "relative-into-package"
  /** Production code reaches outside its package by a relative path. */
  | "relative-out-of-package"
  /** Production code imports a workspace package its package.json does not list in "dependencies". */
  | "undeclared"
  /** An `@peloton/…` name that is no workspace package. */
  | "unknown-package"
  /** Production code imports the shared test helpers. */
  | "test-support-in-production"
  /** A file in a folder of FOLDER_LAYERS imports a folder above its own (or the package's index). */
  | "folder-direction"
  /** A folder under a source folder of FOLDER_LAYERS that its order does not name. */
  | "folder-unplaced";

/**
 * An import the check lets pass for now. Each names the issue item whose work
 * removes it; the check fails when an exception no longer matches anything,
 * so the list only shrinks.
 */
export interface Exception {
  rule: Rule;
  /** Repository-relative path of the importing file(s). */
  from: RegExp;
  /** The import as written, or (relative imports) the repository path it resolves to. */
  to: RegExp;
  /** The issue item that removes the exception, and why it stands until then. */
  until: string;
}

export const EXCEPTIONS: readonly Exception[] = [
  {
    rule: "relative-into-package",
    from: /^e2e\//,
    to: /^apps\/console\/src\/lib\/format\.ts$/,
    until:
      "issue 15 item 7: one formatter for amounts and units, in a package both the console " +
      "and the browser tests import; until then the tests borrow the console's",
  },
];
