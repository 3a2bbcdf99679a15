/**
 * The console tells the truth about liveness: a page left open while its
 * server dies says so within 5 s, reconnects by itself when the server is
 * back, and then shows the present — a run that was lost meanwhile is no
 * longer shown RUNNING — without a reload. Error cards that appeared in the
 * outage go away by themselves.
 *
 * The server taken away is a second `next start` (console-server.ts) on the
 * suite's database; the suite's own server keeps scheduling meanwhile and
 * the changes are made through its API, as a person on another console would.
 */
import { ADMIN_STATE_FILE, adminApi } from "./support/auth.ts";
import { ConsoleServer, extraConsolePort } from "./support/console-server.ts";
import { type E2eFixture, readFixture } from "./support/fixture.ts";
import { expect, type Page, test, watchReactErrors } from "./support/test.ts";

/** The only agent on rack r3: a task pinned there has nowhere else to go once it is gone. */
const HOST = "e2e-host-2";
const SHOTS = "e2e/screenshots";

function pinnedJobYaml(name: string): string {
  return `name: ${name}
type: BATCH
owningTeam: e2e
description: "One instance on ${HOST}, lost with it during the outage spec"
instanceCount: 1
sla:
  priority: 0
  preemptible: false
defaultConfig:
  resource:
    cpuLimit: 0.5
    memLimitMb: 128
    diskLimitMb: 100
  command:
    value: "sleep 3600"
    environment:
      variables:
        - name: PELOTON_SIM_DURATION_MS
          value: "3600000"
  constraint:
    labelConstraint: { kind: HOST, condition: CONDITION_EQUAL, label: { key: rack, value: r3 }, requirement: 1 }
`;
}

/** Polls `probe` until it answers; `last` says what was seen instead, for the failure message. */
async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  last: () => Promise<unknown>,
  ms = 60_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(await last())}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Marks the document: the mark survives anything but a reload or a full navigation. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });
const stillSameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);

test.describe("outage", () => {
  // Far from the server's zone (UTC in CI): times rendered in the server's zone would not hydrate.
  test.use({ timezoneId: "Pacific/Auckland", locale: "de-DE" });
  // Read once the suite's server and global setup have written it (not while listing tests).
  let fx: E2eFixture;
  let server: ConsoleServer;
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    fx = readFixture();
    server = new ConsoleServer(extraConsolePort(), fx.databaseUrl);
    await server.start();
  });
  test.afterAll(() => server?.kill());
  // A console a test started for itself is stopped even when the test fails, so that
  // a retry (or the next run) finds its port free.
  let ownServer: ConsoleServer | undefined;
  // A job a test made, stopped even when the test fails (before the simAgents
  // fixture brings its host back): the specs after this one count capacity.
  let ownJob: string | undefined;
  test.afterEach(async ({ baseURL }) => {
    await ownServer?.kill();
    ownServer = undefined;
    if (ownJob !== undefined) await adminApi(baseURL!).jobs.stop.mutate({ id: ownJob });
    ownJob = undefined;
  });

  test("the page says offline within 5 s, comes back by itself and shows what changed meanwhile, without a reload", async ({
    page,
    baseURL,
    browser,
    simAgents,
  }) => {
    test.setTimeout(240_000);
    const api = adminApi(baseURL!);
    const created = await api.jobs.create.mutate({
      pool: "/infra/batch",
      yaml: pinnedJobYaml("e2e-outage"),
    });
    ownJob = created.id;
    const task = () => api.tasks.get.query({ jobId: created.id, instance: 0 });
    const seen = async () => {
      const t = await task();
      return { state: t.state, host: t.hostname, reason: t.reason, message: t.message };
    };
    const running = await until(
      "the pinned instance to run",
      async () => {
        const t = await task();
        return t.state === "RUNNING" && t.hostname === HOST ? t : undefined;
      },
      seen,
    );

    await page.goto(`${server.url}/jobs/${created.id}/tasks/0`);
    const indicator = page.getByTestId("live-indicator");
    const state = page.getByTestId("task-state");
    await expect(indicator).toHaveAttribute("data-live", "true");
    await expect(state).toHaveAttribute("data-state", "RUNNING");
    await markDocument(page);

    // A second tab on the hosts page, for an error card made during the outage.
    const hostsPage = await browser.newPage({ storageState: ADMIN_STATE_FILE });
    const hostsErrors = watchReactErrors(hostsPage);
    await hostsPage.goto(`${server.url}/hosts`);
    await hostsPage.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(hostsPage.getByTestId("live-indicator")).toHaveAttribute("data-live", "true");

    await server.kill();
    const killedAt = Date.now();
    await expect(indicator).toHaveAttribute("data-status", "offline", { timeout: 5_000 });
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    await expect(indicator).toHaveAttribute("data-live", "false");
    await expect(indicator).toContainText(/Offline since \d\d:\d\d:\d\d · reconnecting/);
    await indicator.screenshot({ path: `${SHOTS}/live-offline-light.png` });
    await page.screenshot({ path: `${SHOTS}/task-offline-light.png` });
    await page.emulateMedia({ colorScheme: "dark" });
    await indicator.screenshot({ path: `${SHOTS}/live-offline-dark.png` });
    await page.emulateMedia({ colorScheme: "light" });

    // Meanwhile the cluster moves on: the instance's host fails, its run is LOST.
    await simAgents.fail(HOST);
    const after = await until(
      "the run to be lost",
      async () => {
        const t = await task();
        return t.state !== "RUNNING" || t.runId !== running.runId ? t : undefined;
      },
      seen,
    );
    expect(after.runs.find((r) => r.runId === running.runId)?.state).toBe("LOST");

    // An error card on the other tab: a filter change while the server is gone.
    await hostsPage
      .getByRole("group", { name: "State" })
      .getByRole("button", { name: "LOST" })
      .click();
    const card = hostsPage.getByRole("alert").filter({ hasText: "could not be loaded" });
    await expect(card).toBeVisible({ timeout: 15_000 });
    await expect(card.getByTestId("auto-retry")).toContainText(/Trying again/);
    await expect(card.getByRole("button", { name: "Try again" })).toBeVisible();
    // The card leaves and comes back with each attempt (the earlier rows show meanwhile).
    await hostsPage.screenshot({ path: `${SHOTS}/load-error-retrying-light.png` });
    await expect(page.getByTestId("task-state")).toHaveAttribute("data-state", "RUNNING");

    await server.start();
    // Back by itself (the longest backoff is 10 s), and current: the lost run is not RUNNING.
    await expect(indicator).toHaveAttribute("data-live", "true", { timeout: 20_000 });
    await expect(indicator).toContainText(/^Live/);
    await expect(state).not.toHaveAttribute("data-state", "RUNNING");
    await expect(page.locator(`[data-run="${running.runId}"]`)).toHaveAttribute(
      "data-state",
      "LOST",
    );
    expect(await stillSameDocument(page)).toBe(true);
    await indicator.screenshot({ path: `${SHOTS}/live-back-light.png` });
    await page.emulateMedia({ colorScheme: "dark" });
    await indicator.screenshot({ path: `${SHOTS}/live-back-dark.png` });
    await page.emulateMedia({ colorScheme: "light" });

    // The error card went away by itself; the filtered list shows the lost host.
    await expect(card).toBeHidden({ timeout: 20_000 });
    await expect(hostsPage.locator(`tr[data-host="${HOST}"]`)).toHaveAttribute(
      "data-state",
      "LOST",
    );
    expect(hostsErrors).toEqual([]);
    await hostsPage.close();
  });

  test("the task and hosts pages hydrate without errors in another time zone with a skewed clock", async ({
    page,
  }) => {
    // The browser's clock 3 min 17 s ahead of the server's, in a zone far from UTC:
    // text rendered from "now" or in the server's zone would differ on hydration.
    await page.clock.install({ time: Date.now() + 197_000 });
    const job = fx.backlogJobs[0]!;
    for (const path of [`/jobs/${job.id}/tasks/0`, "/hosts", `/jobs/${job.id}`, "/"]) {
      await page.goto(`${server.url}${path}`);
      await expect(page.getByTestId("live-indicator").first()).toHaveAttribute("data-live", "true");
    }
    // The page fixture fails the test on any hydration error it heard.
  });

  test("a page whose server could not reach the database renders by itself once both are back, without a reload", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    await server.kill();
    // The same console, its database out of reach (nothing listens on port 1).
    const cut = new ConsoleServer(extraConsolePort(), "postgres://postgres@127.0.0.1:1/peloton");
    ownServer = cut;
    await cut.start({ healthy: false });
    // Its own tab: a failed server render is reported as React #441, which is the point here.
    const tab = await browser.newPage({ storageState: ADMIN_STATE_FILE });
    const errors = watchReactErrors(tab);
    await tab.goto(`${cut.url}/hosts`);
    const card = tab.getByRole("alert").filter({ hasText: "This page could not load" });
    await expect(card).toBeVisible();
    await markDocument(tab);
    // The server answers, so the page keeps trying by itself.
    await expect(card.getByTestId("auto-retry")).toContainText(/Trying again/);
    await tab.screenshot({ path: `${SHOTS}/page-error-retrying-light.png` });

    await cut.kill();
    // No server at all: a retry now would leave the page for the browser's error page.
    await expect(card.getByTestId("auto-retry")).toHaveText("Waiting for the server to answer…", {
      timeout: 5_000,
    });
    await expect(card.getByRole("button", { name: "Try again" })).toBeDisabled();
    await tab.emulateMedia({ colorScheme: "dark" });
    await tab.screenshot({ path: `${SHOTS}/page-error-waiting-dark.png` });
    await tab.emulateMedia({ colorScheme: "light" });

    await server.start();
    await expect(tab.getByRole("heading", { name: "Hosts" })).toBeVisible({ timeout: 30_000 });
    await expect(card).toBeHidden();
    await expect(tab.getByTestId("live-indicator")).toHaveAttribute("data-live", "true");
    expect(await stillSameDocument(tab)).toBe(true);
    expect(errors.filter((e) => !/#441\b/.test(e))).toEqual([]);
    await tab.close();
  });
});
