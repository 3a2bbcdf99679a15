/**
 * Checks every import of the tree against the arrows in rules.ts (and, inside
 * a package, its folder order: folders.ts). Pure: it takes repository-relative
 * paths and their sources (files.ts reads them), so its tests feed it
 * violating imports directly.
 */
import { posix } from "node:path";
import { folderDirectionOf, unplacedFolders } from "./folders.ts";
import { importSpecifiers } from "./imports.ts";
import {
  EXCEPTIONS,
  type Exception,
  type Layer,
  MAY_IMPORT,
  PACKAGES,
  type PackageName,
  type Rule,
  TEST_SUPPORT,
} from "./rules.ts";

export interface SourceFile {
  /** Repository-relative, with forward slashes. */
  path: string;
  source: string;
}

export interface Violation {
  rule: Rule;
  file: string;
  specifier: string;
  message: string;
}

/** What an importing file is: production code of a layer, a package's tests, or outside every package. */
type Importer =
  | { kind: "production"; pkg: PackageName; layer: Layer }
  | { kind: "support"; pkg: PackageName; layer: Layer }
  | { kind: "outside" };

const NAMES = Object.keys(PACKAGES) as PackageName[];

/** The package whose test support a folder of the shared test helpers is (`src/<package>/`). */
function supportedPackage(inner: string): PackageName | null {
  const name = inner.split("/")[0] ?? "";
  return name in PACKAGES && name !== "console" ? (name as PackageName) : null;
}

/**
 * The package a repository path belongs to, if any; a file of the shared test
 * helpers belongs to the package it supports.
 */
export function packageOf(path: string): PackageName | null {
  if (path.startsWith(`${TEST_SUPPORT}/src/`))
    return supportedPackage(path.slice(TEST_SUPPORT.length + "/src/".length));
  return NAMES.find((name) => path.startsWith(`${PACKAGES[name]}/`)) ?? null;
}

function importerOf(path: string): Importer {
  const pkg = packageOf(path);
  if (!pkg) return { kind: "outside" };
  if (path.startsWith(`${TEST_SUPPORT}/`)) return { kind: "support", pkg, layer: pkg as Layer };
  const inner = path.slice(PACKAGES[pkg].length + 1);
  const layer: Layer =
    pkg !== "console" ? pkg : inner.startsWith("server/") ? "console-server" : "console-ui";
  const support = inner.startsWith("test/") || inner.startsWith("bench/");
  return { kind: support ? "support" : "production", pkg, layer };
}

/**
 * Everything a layer reaches, directly or through the packages it imports:
 * what its tests and benchmarks may import, since they assemble the system
 * below them (a CLI test serves the API over a real scheduler). Never upward.
 */
export function reachable(layer: Layer): Set<PackageName> {
  const seen = new Set<PackageName>();
  const visit = (l: Layer) => {
    for (const p of MAY_IMPORT[l]) {
      if (seen.has(p)) continue;
      seen.add(p);
      // Below the console nothing imports it, so every package name but it is its own layer.
      if (p !== "console") visit(p);
    }
  };
  visit(layer);
  return seen;
}

/** The import as a target: a workspace package (and the repository path, when relative), or external. */
function targetOf(
  file: string,
  specifier: string,
): { pkg: PackageName | null; path: string | null; unknown?: boolean; testSupport?: boolean } {
  if (specifier.startsWith("@peloton/test-support/")) {
    const pkg = supportedPackage(specifier.slice("@peloton/test-support/".length));
    return pkg ? { pkg, path: null, testSupport: true } : { pkg: null, path: null, unknown: true };
  }
  if (specifier.startsWith("@peloton/")) {
    const name = specifier.slice("@peloton/".length).split("/")[0]!;
    return name in PACKAGES
      ? { pkg: name as PackageName, path: null }
      : { pkg: null, path: null, unknown: true };
  }
  if (specifier.startsWith("./") || specifier.startsWith("../")) {
    const path = posix.normalize(posix.join(posix.dirname(file), specifier));
    return { pkg: packageOf(path), path };
  }
  return { pkg: null, path: null };
}

/** Each workspace package's runtime dependencies (its package.json "dependencies"), by name. */
export type Declared = Partial<Record<PackageName, readonly string[]>>;

/** The violations of one import, before exceptions; `declared` also checks the importer's package.json. */
export function violationsOf(file: string, specifier: string, declared?: Declared): Violation[] {
  const importer = importerOf(file);
  const target = targetOf(file, specifier);
  const found: Violation[] = [];
  const add = (rule: Rule, message: string) => found.push({ rule, file, specifier, message });

  if (target.unknown)
    add(
      "unknown-package",
      specifier.startsWith("@peloton/test-support")
        ? `${specifier} names no package's folder of the shared test helpers (@peloton/test-support/<package>/<file>.ts)`
        : `${specifier} is no workspace package`,
    );
  if (target.testSupport && importer.kind === "production")
    add("test-support-in-production", "production code never imports the test helpers");
  if (target.path !== null) {
    const own = importer.kind === "outside" ? null : importer.pkg;
    const inSupport = (p: string) => p.startsWith(`${TEST_SUPPORT}/`);
    // The test helpers' folders are packages of their own: one reaches another by name.
    const crosses =
      inSupport(target.path) !== inSupport(file) || (target.pkg !== null && target.pkg !== own);
    if (target.pkg && crosses) {
      add(
        "relative-into-package",
        inSupport(target.path)
          ? `reaches into ${TEST_SUPPORT} by path; import @peloton/test-support/${target.pkg}/… instead`
          : `reaches into ${PACKAGES[target.pkg]} by path; import @peloton/${target.pkg} ` +
              "(its exports) instead",
      );
    } else if (!target.pkg && importer.kind === "production") {
      add(
        "relative-out-of-package",
        `leaves ${PACKAGES[importer.pkg]} by path (to ${target.path}); a package's code imports ` +
          "only its own files and other packages by name",
      );
    }
  }
  if (importer.kind === "production") {
    const upward = folderDirectionOf(file, specifier);
    if (upward) found.push(upward);
  }
  if (importer.kind === "outside" || !target.pkg || target.pkg === importer.pkg) return found;

  if (importer.kind === "production" && !MAY_IMPORT[importer.layer].includes(target.pkg)) {
    add(
      "direction",
      `${importer.layer} may import ${list(MAY_IMPORT[importer.layer])}, not ${target.pkg}`,
    );
  }
  if (importer.kind === "support" && !reachable(importer.layer).has(target.pkg)) {
    add(
      "test-direction",
      `tests of ${importer.layer} may import what it reaches (${list([...reachable(importer.layer)])}), ` +
        `not ${target.pkg}`,
    );
  }
  const deps =
    importer.kind === "production" && !target.testSupport ? declared?.[importer.pkg] : undefined;
  if (deps && target.path === null && !deps.includes(`@peloton/${target.pkg}`)) {
    add(
      "undeclared",
      `imports @peloton/${target.pkg} without declaring it in ${PACKAGES[importer.pkg]}/package.json`,
    );
  }
  return found;
}

/** The layers a package's production code sits in (the console has two). */
function layersOf(pkg: PackageName): Layer[] {
  return pkg === "console" ? ["console-ui", "console-server"] : [pkg];
}

/** Dependencies a package.json declares against the direction: the arrows hold for manifests too. */
export function manifestViolations(declared: Declared): Violation[] {
  const found: Violation[] = [];
  for (const pkg of Object.keys(declared) as PackageName[]) {
    const allowed = new Set(layersOf(pkg).flatMap((l) => MAY_IMPORT[l]));
    for (const dep of declared[pkg] ?? []) {
      const name = dep.slice("@peloton/".length) as PackageName;
      if (!dep.startsWith("@peloton/") || name === pkg || allowed.has(name)) continue;
      found.push({
        rule: "direction",
        file: `${PACKAGES[pkg]}/package.json`,
        specifier: dep,
        message: `${pkg} may depend on ${list([...allowed])}, not ${name}`,
      });
    }
  }
  return found;
}

function list(names: readonly string[]): string {
  return names.length ? names.join(", ") : "no other package";
}

function excused(v: Violation, e: Exception): boolean {
  if (e.rule !== v.rule || !e.from.test(v.file)) return false;
  const target = targetOf(v.file, v.specifier).path ?? v.specifier;
  return e.to.test(target);
}

export interface Report {
  violations: Violation[];
  /** Exceptions that no longer match an import: delete them. */
  stale: Exception[];
}

/**
 * Every violation in the files (and, given `declared`, in the package.json
 * files), less the exceptions; and the exceptions nothing needs any more.
 */
export function checkImports(
  files: readonly SourceFile[],
  exceptions: readonly Exception[] = EXCEPTIONS,
  declared?: Declared,
): Report {
  const used = new Set<Exception>();
  const violations: Violation[] = [];
  const judge = (v: Violation) => {
    const e = exceptions.find((x) => excused(v, x));
    if (e) used.add(e);
    else violations.push(v);
  };
  for (const file of files) {
    for (const specifier of importSpecifiers(file.source)) {
      for (const v of violationsOf(file.path, specifier, declared)) judge(v);
    }
  }
  for (const v of unplacedFolders(files)) judge(v);
  if (declared) for (const v of manifestViolations(declared)) judge(v);
  return { violations, stale: exceptions.filter((e) => !used.has(e)) };
}
