/**
 * Global setup of the faults project: the console's production build must
 * exist before the tests start launchers, or each launcher would build it
 * (in parallel, into one .next folder). `npm test` runs this project after
 * the browser tests, so this is usually a no-op.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { buildIsStale } from "../../../server/build-freshness.ts";
import { repoRoot } from "./launcher.ts";

export default function setup(): void {
  const consoleDir = join(repoRoot, "apps/console");
  if (!buildIsStale(repoRoot, consoleDir)) return;
  const nextBin = join(
    dirname(createRequire(import.meta.url).resolve("next/package.json")),
    "dist/bin/next",
  );
  const r = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: consoleDir,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error(`next build failed (exit ${r.status})`);
}
