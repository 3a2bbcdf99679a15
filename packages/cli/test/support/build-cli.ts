/**
 * Vitest global setup: builds the CLI (packages/cli/dist) before the tests
 * that run `bin/peloton.mjs`, so they exercise the current sources as shipped.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

export default function setup(): void {
  execFileSync(process.execPath, [resolve(import.meta.dirname, "../../scripts/build.mjs")], {
    stdio: "inherit",
  });
}
