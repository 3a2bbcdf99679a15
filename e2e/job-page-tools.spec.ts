/**
 * The job and task pages as the on-call engineer uses them after a failure
 * (issue #19 item 7): the task opens on stderr with its logs above the fold;
 * the logs can be searched and unwrapped; the job's events filter by
 * instance and reason; a job, host or pool that names nothing answers 404 with
 * its own page.
 */
import { randomUUID } from "node:crypto";
import { adminApi } from "./support/auth.ts";
import { createPool, waitFor } from "./support/preemption-journey.ts";
import { expect, type Page, test } from "./support/test.ts";

const main = (page: Page) => page.locator("main#main");
const shot = async (page: Page, name: string) => {
  await page.screenshot({ path: `e2e/screenshots/${name}-light.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `e2e/screenshots/${name}-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
};

const FAILING = `name: fails-loudly
type: BATCH
owningTeam: e2e
description: "Writes three lines, complains on stderr, exits 3"
labels:
  - key: suite
    value: job-page-tools
instanceCount: 2
sla:
  priority: 1
  preemptible: true
defaultConfig:
  resource:
    cpuLimit: 0.5
    memLimitMb: 64
    diskLimitMb: 16
  command:
    shell: true
    value: 'echo "line 1 starting"; echo "line 2 $(printf "%0300d" 0)"; echo "line 3 done"; echo "boom: the disk is full" >&2; exit 3'
`;

test("after a failure: stderr first, logs above the fold, search and wrap, events by instance and reason", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = adminApi(baseURL!);
  await createPool(api, "/jobtools", 4, "Job page tools (browser tests)");
  const job = await api.jobs.create.mutate({ pool: "/jobtools", yaml: FAILING });
  await waitFor("fails-loudly to fail", async () => {
    const j = await api.jobs.get.query({ id: job.id });
    return j.state === "FAILED";
  });

  // The task opens on stderr (the run failed); the logs sit above the fold, before the runs.
  await page.goto(`/jobs/${job.id}/tasks/0`);
  const viewer = main(page).getByTestId("log-viewer");
  await expect(viewer).toHaveAttribute("data-file", "stderr");
  await expect(viewer.getByTestId("log-text")).toContainText("boom: the disk is full");
  const logsTop = (await main(page).locator("#logs").boundingBox())!.y;
  expect(logsTop).toBeLessThan(page.viewportSize()!.height);
  const runsTop = (await main(page).getByRole("heading", { name: /^Runs/ }).boundingBox())!.y;
  expect(logsTop).toBeLessThan(runsTop);
  await shot(page, "task-failed-logs");

  // stdout: a search keeps the lines that contain it; wrap off scrolls them sideways.
  await main(page).getByRole("button", { name: "stdout", exact: true }).click();
  await expect(viewer).toHaveAttribute("data-file", "stdout");
  await expect(viewer.getByTestId("log-text")).toContainText("line 3 done");
  await viewer.getByTestId("log-search").fill("LINE 3");
  await expect(viewer.getByTestId("log-matches")).toHaveText("1 line match");
  await expect(viewer.getByTestId("log-text")).not.toContainText("line 1 starting");
  await expect(viewer.locator("mark")).toHaveText("line 3");
  await viewer.getByTestId("log-search").fill("");
  await expect(viewer.getByTestId("log-text")).toContainText("line 1 starting");
  const wrap = viewer.getByRole("button", { name: "Wrap" });
  await expect(wrap).toHaveAttribute("aria-pressed", "true");
  await wrap.click();
  await expect(viewer.getByTestId("log-text")).toHaveAttribute("data-wrap", "false");
  const box = viewer.getByTestId("log-text");
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

  // The job's events: one instance, then one reason; both in the URL, applied as typed.
  await page.goto(`/jobs/${job.id}?tab=events`);
  const events = main(page).getByTestId("job-events");
  await expect(events.getByTestId("transition").first()).toBeVisible();
  await main(page).getByTestId("events-instance").fill("1");
  await expect(page).toHaveURL(/eventInstance=1/);
  const forOne = await api.jobs.events.query({ id: job.id, instance: 1, limit: 50 });
  await expect(events.getByTestId("transition")).toHaveCount(forOne.items.length);
  const reason = forOne.items.find((e) => e.reason)!.reason!;
  await main(page).getByTestId("events-reason").fill(reason);
  await expect(page).toHaveURL(new RegExp(`eventReason=${reason}`));
  const both = await api.jobs.events.query({ id: job.id, instance: 1, reason, limit: 50 });
  expect(both.items.every((e) => e.reason === reason)).toBe(true);
  await expect(events.getByTestId("transition")).toHaveCount(both.items.length);
  await shot(page, "job-events-filtered");
});

// Detail pages sit outside the (lists) loading boundary: nothing streams before the page knows
// the job exists, so the answer is a real 404, as for a missing pool or host.
test("a job, host or pool that names nothing answers 404 with its own not-found page", async ({
  page,
}) => {
  for (const path of ["/jobs/not-a-uuid", "/hosts/no-such-host.example", "/pools/no/such/pool"]) {
    const res = await page.request.get(path);
    expect(res.status(), path).toBe(404);
  }
  const res = await page.goto(`/jobs/${randomUUID()}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "No such job" })).toBeVisible();
  await expect(
    page.getByTestId("job-not-found").getByRole("link", { name: "All jobs" }),
  ).toBeVisible();
  await shot(page, "job-not-found");

  // A missing host's and pool's pages: their own words, light and dark.
  await page.goto("/hosts/no-such-host.example");
  await expect(page.getByRole("heading", { name: "No such host" })).toBeVisible();
  await shot(page, "host-not-found");
  await page.goto("/pools/no/such/pool");
  await expect(page.getByRole("heading", { name: "No such pool" })).toBeVisible();
  await shot(page, "pool-not-found");
});
