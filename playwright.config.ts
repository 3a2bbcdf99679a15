import { defineConfig } from "@playwright/test";
import { ADMIN_STATE_FILE } from "./e2e/support/auth-env.ts";

// Browser tests drive a production build (next build && next start) in
// Debian's Chromium: Playwright's own browser download cannot work offline.
const PORT = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  // After the web server is up: the work the specs find, submitted through the API.
  globalSetup: "./e2e/support/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [["list"], ["json", { outputFile: "test-results/e2e-results.json" }]]
    : [["list"], ["json", { outputFile: "test-results/e2e-results.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Signed in as the admin (global-setup.ts); specs that need someone else sign in themselves.
    storageState: ADMIN_STATE_FILE,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "chromium", use: { browserName: "chromium", viewport: { width: 1440, height: 900 } } },
  ],
  webServer: {
    // A scratch database with known contents, then the real launcher (`npm start`'s code).
    command: `npx tsx e2e/support/serve.ts`,
    url: `http://127.0.0.1:${PORT}/api/trpc/system.health`,
    // Peloton's gRPC API on any free port: the suite never shares 5397 with a running console.
    env: { PORT: String(PORT), PELOTON_GRPC_PORT: "0" },
    timeout: 240_000,
    reuseExistingServer: false,
    // The server's log (pino, on stdout) is kept in test-results/e2e-server.log; stderr shows here.
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
  },
});
