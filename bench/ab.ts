/**
 * `npm run bench:ab -- <rev> [<prefix>...]`: the benchmarks (or those whose
 * name starts with a prefix) of an older commit and of this working tree, run
 * in turn on the same machine, pair after pair, so that both see the same
 * minutes. A machine's speed moves by 10-30% over minutes (see the issues'
 * notes), so two figures taken apart say little; alternated pairs do.
 *
 * The older commit is checked out as a git worktree in the temporary
 * directory, with this checkout's installed packages linked in (nothing is
 * downloaded) and its own workspace packages and Prisma client, and removed
 * at the end. So a dependency whose version changed between the two
 * commits runs at this checkout's version on both sides. One run at a
 * time: a run removes the worktrees earlier runs left (Ctrl-C leaves one). Each run prints `npm run bench`'s JSON lines with `side`
 * ("old" or "new") and `rev` added, then one summary line per benchmark:
 * the median value of each side (and p95, for latencies) and the change.
 *
 * PELOTON_BENCH_AB_PAIRS sets the number of pairs (default 3); the
 * benchmarks' own variables (PELOTON_BENCH_ROUNDS, DATABASE_URL...) reach
 * both sides.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { median } from "./harness.ts";

const root = resolve(import.meta.dirname, "..");
const [rev, ...prefixes] = process.argv.slice(2);
const PAIRS = Number(process.env.PELOTON_BENCH_AB_PAIRS ?? 3);

if (!rev || !Number.isInteger(PAIRS) || PAIRS < 1 || PAIRS > 50) {
  console.error(
    "usage: npm run bench:ab -- <git revision> [<benchmark name prefix>...]" +
      " (PELOTON_BENCH_AB_PAIRS: 1-50 pairs, default 3)",
  );
  process.exit(2);
}

const git = (...args: string[]) =>
  execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();

/**
 * node_modules for the older tree: a link to each installed package of this
 * checkout, except our own workspace packages, which must be the older
 * tree's (npm links them as ../../<group>/<name>, relative to node_modules).
 */
function linkPackages(tree: string): void {
  const modules = join(tree, "node_modules");
  mkdirSync(modules);
  for (const entry of readdirSync(join(root, "node_modules"))) {
    if (entry === "@peloton") continue;
    symlinkSync(join(root, "node_modules", entry), join(modules, entry));
  }
  mkdirSync(join(modules, "@peloton"));
  for (const link of readdirSync(join(root, "node_modules", "@peloton"))) {
    for (const group of ["packages", "apps"]) {
      if (existsSync(join(tree, group, link)))
        symlinkSync(join("..", "..", group, link), join(modules, "@peloton", link));
    }
  }
  // A package's own dependencies that npm could not hoist.
  for (const group of ["packages", "apps"]) {
    for (const pkg of readdirSync(join(root, group))) {
      const own = join(root, group, pkg, "node_modules");
      if (existsSync(own) && existsSync(join(tree, group, pkg)))
        symlinkSync(own, join(tree, group, pkg, "node_modules"));
    }
  }
}

/**
 * One `npm run bench` in `cwd` (each tree's own script, with the node flags
 * it ran with then); its JSON lines, each tagged with its side.
 */
function runBench(cwd: string, side: "old" | "new", sha: string): Record<string, unknown>[] {
  const child = spawnSync("npm", ["run", "-s", "bench", "--", ...prefixes], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (child.status !== 0)
    throw new Error(
      `the ${side} side's benchmarks failed (${child.signal ?? `exit ${child.status}`})`,
    );
  return child.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => ({ ...(JSON.parse(line) as Record<string, unknown>), side, rev: sha }));
}

/** Each side's figures of one benchmark (`field` of its lines), their medians and the change. */
function sideBySide(name: string, results: readonly Record<string, unknown>[], field: string) {
  const of = (side: string) =>
    results
      .filter((r) => r.bench === name && r.side === side && typeof r[field] === "number")
      .map((r) => r[field] as number);
  const [oldValues, newValues] = [of("old"), of("new")];
  const [oldMedian, newMedian] = [median(oldValues), median(newValues)];
  return {
    old: oldValues,
    new: newValues,
    old_median: oldMedian,
    new_median: newMedian,
    change_pct: Math.round(((newMedian - oldMedian) / oldMedian) * 1000) / 10,
  };
}

/** The summary line of one benchmark: its value, and its p95 where it has one (latencies). */
function summary(name: string, results: readonly Record<string, unknown>[]) {
  const hasP95 = results.some((r) => r.bench === name && typeof r.p95_ms === "number");
  return {
    bench: name,
    summary: "ab",
    unit: results.find((r) => r.bench === name)?.unit,
    pairs: PAIRS,
    old_rev: oldSha.slice(0, 7),
    new_rev: newSha.replace(/^(\w{7})\w*/, "$1"),
    value: sideBySide(name, results, "value"),
    ...(hasP95 ? { p95_ms: sideBySide(name, results, "p95_ms") } : {}),
  };
}

const oldSha = git("rev-parse", "--verify", `${rev}^{commit}`);
// The new side is the working tree as it is, uncommitted changes included.
const newSha = git("rev-parse", "HEAD") + (git("status", "--porcelain") ? "+changes" : "");
const TREE_PREFIX = join(tmpdir(), "peloton-bench-ab-");
// A run stopped by Ctrl-C dies under npm and tsx before its `finally`:
// the worktrees such runs left are removed here.
for (const line of git("worktree", "list", "--porcelain").split("\n")) {
  const path = line.startsWith("worktree ") ? line.slice("worktree ".length) : "";
  if (path.startsWith(TREE_PREFIX)) git("worktree", "remove", "--force", path);
}
const tree = mkdtempSync(TREE_PREFIX);
rmSync(tree, { recursive: true });
git("worktree", "add", "--detach", tree, oldSha);
try {
  linkPackages(tree);
  // The older tree's Prisma client, by its own script (the offline recipe it had then).
  execFileSync("npm", ["run", "-s", "db:generate"], {
    cwd: tree,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const results: Record<string, unknown>[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    for (const [side, cwd, sha] of [
      ["old", tree, oldSha],
      ["new", root, newSha],
    ] as const) {
      for (const result of runBench(cwd, side, sha)) {
        console.log(JSON.stringify(result));
        results.push(result);
      }
    }
  }
  const names = [...new Set(results.map((r) => String(r.bench)))];
  if (names.length === 0) throw new Error("no benchmark ran on either side");
  for (const name of names) console.log(JSON.stringify(summary(name, results)));
} finally {
  git("worktree", "remove", "--force", tree);
}
