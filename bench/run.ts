/**
 * `npm run bench [-- <prefix>...]`: runs every benchmark (or those whose name
 * starts with one of the prefixes) and prints one JSON line each on stdout.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Benchmark } from "./harness.ts";

const root = resolve(import.meta.dirname, "..");
const prefixes = process.argv.slice(2).filter((a) => !a.startsWith("-"));

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

const wanted = (name: string) => prefixes.length === 0 || prefixes.some((p) => name.startsWith(p));

let ran = 0;
let failed = 0;
for (const file of benchFiles()) {
  const mod = (await import(pathToFileURL(file).href)) as { default: Benchmark[] };
  for (const b of mod.default.filter((x) => wanted(x.name))) {
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
if (ran === 0 && failed === 0) console.error(`no benchmark matches ${prefixes.join(", ")}`);
process.exit(failed > 0 ? 1 : 0);
