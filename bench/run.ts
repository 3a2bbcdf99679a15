/**
 * `npm run bench [-- <prefix>...]`: runs every benchmark (or those whose name
 * starts with one of the prefixes) and prints one JSON line each on stdout.
 * Each benchmark runs in a process of its own (`--only <name>`), so neither
 * its figures nor its `rss_mb` carry the heap and garbage of the ones before.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Benchmark } from "./harness.ts";

const root = resolve(import.meta.dirname, "..");

function benchFiles(): string[] {
  const dirs = [join(root, "bench")];
  for (const group of ["packages", "apps"]) {
    for (const pkg of readdirSync(join(root, group))) dirs.push(join(root, group, pkg, "bench"));
  }
  return dirs
    .filter((d) => existsSync(d))
    .flatMap((d) =>
      readdirSync(d)
        .filter((f) => f.endsWith(".bench.ts"))
        .map((f) => join(d, f)),
    )
    .sort();
}

const onlyAt = process.argv.indexOf("--only");
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
const prefixes = process.argv
  .slice(2)
  .filter((a, i, all) => !a.startsWith("-") && all[i - 1] !== "--only");
const wanted = (name: string) =>
  only !== undefined
    ? name === only
    : prefixes.length === 0 || prefixes.some((p) => name.startsWith(p));

let ran = 0;
let failed = 0;
for (const file of benchFiles()) {
  const mod = (await import(pathToFileURL(file).href)) as { default: Benchmark[] };
  for (const b of mod.default.filter((x) => wanted(x.name))) {
    if (only === undefined) {
      // The parent only lists; a child process runs it.
      const child = spawnSync(
        process.execPath,
        [...process.execArgv, import.meta.filename, "--only", b.name],
        { stdio: "inherit" },
      );
      if (child.status === 0) ran++;
      else failed++;
      continue;
    }
    try {
      const result = await b.run();
      process.stdout.write(`${JSON.stringify(result)}\n`);
      ran++;
    } catch (err) {
      failed++;
      console.error(`bench ${b.name} failed:`, err);
    }
  }
}
if (ran === 0 && failed === 0) console.error(`no benchmark matches ${only ?? prefixes.join(", ")}`);
process.exit(failed > 0 ? 1 : 0);
