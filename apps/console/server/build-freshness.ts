import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Newest modification time (ms) under `dir`, skipping build output and dependencies. */
function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  const st = statSync(dir);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === ".next" || entry.name.startsWith("."))
      continue;
    newest = Math.max(newest, newestMtime(join(dir, entry.name)));
  }
  return newest;
}

/**
 * Whether the console's production build is missing or older than any source
 * it is built from (its own code, the packages it bundles, the lockfile).
 */
export function buildIsStale(repoRoot: string, consoleDir: string): boolean {
  const buildId = join(consoleDir, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const builtAt = statSync(buildId).mtimeMs;
  const sources = [
    join(consoleDir, "src"),
    join(consoleDir, "next.config.ts"),
    join(consoleDir, "package.json"),
    join(repoRoot, "package-lock.json"),
    ...["api", "peloton-api", "scheduler", "storage", "engine"].map((p) =>
      join(repoRoot, "packages", p, "src"),
    ),
  ];
  return sources.some((s) => newestMtime(s) > builtAt);
}
