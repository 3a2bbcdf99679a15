import { defineConfig } from "vitest/config";

// Three projects: fast pure unit tests; integration tests that talk to a real
// PostgreSQL (DATABASE_URL's server when set, else the embedded one), whose
// global setup creates a scratch database per run and drops it at the end;
// and process-level fault tests (`*.fault.test.ts`) that start the real
// launcher, kill its processes and start it again (they need the console's
// production build: `npm test` runs them after the browser tests).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "packages/*/test/**/*.test.ts",
            "apps/*/test/**/*.test.ts",
            "scripts/test/**/*.test.ts",
          ],
          exclude: ["**/*.int.test.ts", "**/*.fault.test.ts", "**/node_modules/**"],
        },
      },
      {
        test: {
          name: "integration",
          include: ["packages/*/test/**/*.int.test.ts"],
          globalSetup: [
            "packages/test-support/src/storage/global-setup.ts",
            // The CLI's tests run the shipped binary: built from the sources under test.
            "packages/cli/test/support/build-cli.ts",
          ],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "faults",
          include: ["apps/*/test/**/*.fault.test.ts"],
          globalSetup: ["apps/console/test/faults/support/global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // Each file runs its own launchers (PostgreSQL, mesos-sim, next-server)
          // and waits on them: two at a time keep 2 cores busy, not swamped.
          maxWorkers: 2,
        },
      },
    ],
  },
});
