/** The tree's source files, as check.ts reads them. */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Declared, SourceFile } from "./check.ts";
import { PACKAGES, type PackageName } from "./rules.ts";

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
// Installed, generated or built: not the project's own imports.
const SKIP = new Set([
  "node_modules",
  "generated",
  ".next",
  ".git",
  ".data",
  "dist",
  "test-results",
  "playwright-report",
]);

/** Every source file under root, paths relative to it with forward slashes. */
export function sourceFiles(root: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && SOURCE.test(entry.name)) {
        out.push({
          path: relative(root, full).split(sep).join("/"),
          source: readFileSync(full, "utf8"),
        });
      }
    }
  };
  walk(root);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Each workspace package's "dependencies", from its package.json. */
export function declaredDependencies(root: string): Declared {
  const declared: Declared = {};
  for (const name of Object.keys(PACKAGES) as PackageName[]) {
    const manifest = JSON.parse(
      readFileSync(join(root, PACKAGES[name], "package.json"), "utf8"),
    ) as {
      dependencies?: Record<string, string>;
    };
    declared[name] = Object.keys(manifest.dependencies ?? {});
  }
  return declared;
}
