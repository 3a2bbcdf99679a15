/**
 * `npm test`: lint, import directions, type-check, unit and integration
 * tests, the console's production build and the browser tests, then the
 * process-level fault tests (which serve that same build), in that order.
 * Every step runs even after a failure so one run shows everything; the exit
 * code is non-zero if any step failed. Ends with the runners' totals
 * as one plain line: "N passed, N failed".
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Counts, playwrightCounts, vitestCounts } from "./test-reports.ts";

const root = resolve(import.meta.dirname, "..");
const results = join(root, "test-results");
mkdirSync(results, { recursive: true });

interface Step {
  name: string;
  cmd: string[];
  counts?: () => Counts | null;
}

const vitest = (project: string) => {
  const out = join(results, `${project}.json`);
  return {
    name: `${project} tests (vitest)`,
    cmd: [
      "npx",
      "vitest",
      "run",
      "--project",
      project,
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${out}`,
    ],
    counts: () => vitestCounts(out, root),
    out,
  };
};

const steps: (Step & { out?: string })[] = [
  { name: "lint and format (biome)", cmd: ["npx", "biome", "ci", "."] },
  { name: "architecture (import directions)", cmd: ["npm", "run", "-s", "lint:architecture"] },
  {
    name: "generated code (peloton-api protos)",
    cmd: ["npm", "run", "-s", "check:generated"],
  },
  { name: "type-check (tsc, every package)", cmd: ["npm", "run", "-s", "typecheck"] },
  vitest("unit"),
  vitest("integration"),
  // Built here, not by the browser tests' web server, so that a slow build on a
  // busy machine is its own step and never eats the server's start-up budget.
  { name: "console build (next build)", cmd: ["npm", "run", "-s", "build"] },
  {
    name: "browser tests (playwright)",
    cmd: ["npx", "playwright", "test"],
    counts: () => playwrightCounts(join(results, "e2e-results.json")),
    out: join(results, "e2e-results.json"),
  },
  vitest("faults"),
];

const only = process.argv.slice(2);
const selected = only.length ? steps.filter((s) => only.some((o) => s.name.startsWith(o))) : steps;

const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const summary: string[] = [];
let anyFailed = false;
for (const step of selected) {
  if (step.out) rmSync(step.out, { force: true });
  console.log(`\n━━ ${step.name}: ${step.cmd.join(" ")}`);
  const t0 = Date.now();
  const res = spawnSync(step.cmd[0]!, step.cmd.slice(1), {
    cwd: root,
    stdio: "inherit",
    env: process.env,
  });
  const ok = res.status === 0;
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  const counts = step.counts?.() ?? null;
  if (counts) {
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  }
  if (!ok) {
    anyFailed = true;
    // A step that failed without counting a failed test (lint, tsc, a crash) still counts as one failure.
    if (!counts || counts.failed === 0) total.failed += 1;
  }
  const detail = counts
    ? ` (${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped)`
    : "";
  summary.push(`${ok ? "ok  " : "FAIL"}  ${step.name}${detail}  ${secs}s`);
  for (const name of counts?.failures ?? []) summary.push(`        failed: ${name}`);
  for (const name of counts?.flaky ?? []) summary.push(`        passed on a retry: ${name}`);
}

console.log("\n━━ summary");
for (const line of summary) console.log(line);
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(anyFailed ? 1 : 0);
