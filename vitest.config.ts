import { defineConfig } from "vitest/config";

// Two projects: fast pure unit tests, and integration tests that talk to a real
// PostgreSQL (DATABASE_URL's server when set, else the embedded one). The
// integration project's global setup creates a scratch database per run and
// drops it at the end.
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
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
        },
      },
      {
        test: {
          name: "integration",
          include: ["packages/*/test/**/*.int.test.ts"],
          globalSetup: ["packages/test-support/src/storage/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
