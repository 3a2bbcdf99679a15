/**
 * /preemptions as on-call uses it after "my task was killed", on preemptions
 * the running preemptor made (global-setup.ts runs the journey of
 * support/preemption-journey.ts before the specs): find the task's
 * preemption, read the rule and its numbers, see that it came back. Counts
 * are the API's at the same moment: other specs change the cluster, and the
 * preemptor answers them.
 */

import { formatResource } from "../apps/console/src/lib/format.ts";
import { adminApi } from "./support/auth.ts";
import { readFixture } from "./support/fixture.ts";
import { createPool, journeyJobYaml, running, waitFor } from "./support/preemption-journey.ts";
import { expect, type Page, test } from "./support/test.ts";

// Next keeps pages it navigated away from rendered but hidden: only visible rows count.
const rows = (page: Page) => page.locator("tr[data-preemption]").filter({ visible: true });
const row = (page: Page, id: string) =>
  page.locator(`tr[data-preemption="${id}"]`).filter({ visible: true });
const sheet = (page: Page) => page.getByTestId("preemption-detail");
const main = (page: Page) => page.locator("main#main");
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });

type Api = ReturnType<typeof adminApi>;
type ListInput = Parameters<Api["preemptions"]["list"]["query"]>[0];

/** The first page's ids as the API lists them now (the page shows 50). */
async function listed(api: Api, filters: Omit<ListInput, "limit">): Promise<string[]> {
  return (await api.preemptions.list.query({ ...filters, limit: 50 })).items.map((p) => p.id);
}

/** The table shows what the API lists at the same moment (preemptions keep coming). */
async function expectRowsAsListed(page: Page, api: Api, filters: Omit<ListInput, "limit">) {
  await expect
    .poll(async () => {
      const shown = await rows(page).evaluateAll((trs) =>
        trs.map((tr) => tr.getAttribute("data-preemption")),
      );
      const api_ = await listed(api, filters);
      return shown.join(" ") === api_.join(" ") ? "same" : `${shown.length} vs ${api_.length}`;
    })
    .toBe("same");
}

test.describe("preemptions", () => {
  test("on-call: filter by the victim's pool, open the row, read the rule and its numbers, jump to the task that came back", async ({
    page,
    baseURL,
  }) => {
    const api = adminApi(baseURL!);
    const { preemptions: fx } = readFixture();
    const p = fx.cameBack;
    const task = `${p.victim.jobName}/${p.victim.instanceId}`;
    await page.goto("/preemptions");
    await expect(page.getByRole("heading", { name: "Preemptions", exact: true })).toBeVisible();
    await expect(rows(page).first()).toBeVisible();
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-live", "true");

    // Filter by the pool the task ran in, as the victim's pool (the known pools are suggested).
    const pool = page.getByRole("combobox", { name: "Pool", exact: true });
    await pool.fill(p.victim.poolPath);
    await pool.press("Enter");
    await page.getByRole("combobox", { name: "Side of the pool" }).selectOption("victim");
    await expect(page).toHaveURL(
      new RegExp(`pool=${encodeURIComponent(p.victim.poolPath)}.*side=victim`),
    );
    await expectRowsAsListed(page, api, { pool: p.victim.poolPath, side: "victim" });
    for (const r of await rows(page).all())
      await expect(r).toHaveAttribute("data-victim-pool", p.victim.poolPath);
    // The journey's preemptions of this pool are all there.
    for (const x of fx.all.filter((a) => a.victimPool === p.victim.poolPath))
      await expect(row(page, x.id)).toBeVisible();
    await expect(row(page, p.id)).toContainText(task);
    await expect(
      page.getByTestId("preemption-counts-chart").filter({ visible: true }),
    ).toBeVisible();
    await shot(page, "preemptions-light");

    // Open it: the rule in words, and the numbers that decided it.
    await row(page, p.id).getByRole("cell").last().click();
    const details = sheet(page);
    await expect(details.getByRole("heading", { name: `${task} preempted` })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`open=${p.id}`));
    await expect(details.getByTestId("preemption-reason")).toHaveText(p.reason);
    // /oncall/reports held the whole 8-core host; /oncall/adhoc's demand halved its share.
    expect(p.reason).toMatch(
      /^\/oncall\/reports was over its cpu entitlement by 4 cores \(allocation 8, entitlement 4\) while \/oncall\/adhoc waited for 4 cores, decided at \/oncall; preempted running task nightly-reports\/\d \(priority 1\)/,
    );
    const cpu = details.getByTestId("preemption-numbers").locator('tr[data-kind="cpu"]');
    for (const n of [p.cpu.allocation, p.cpu.entitlement, p.cpu.excess, p.cpu.victim])
      await expect(cpu).toContainText(formatResource("cpu", n));
    expect([p.cpu.allocation, p.cpu.entitlement, p.cpu.excess, p.cpu.victim]).toEqual([8, 4, 4, 1]);
    await expect(details.getByTestId("beneficiaries")).toContainText("/oncall/adhoc");

    // Whether it came back, and the way to its task.
    expect(p.rescheduledRunId).toBe(p.victim.runId + 1);
    await expect(details.getByTestId("detail-came-back")).toHaveAttribute("data-tone", "ok");
    await expect(details.getByTestId("detail-came-back")).toContainText(
      `run ${p.rescheduledRunId}`,
    );
    const history = details.getByTestId("task-preemptions");
    await expect(history.locator(`li[data-preemption="${p.id}"]`)).toContainText("back ·");
    await shot(page, "preemptions-detail-light");

    // The open row is part of the link: a reload shows the same thing.
    await page.reload();
    await expect(sheet(page).getByTestId("preemption-reason")).toHaveText(p.reason);

    // The task: preempted in run 1, killed as preempted, run 2 ran.
    const open = sheet(page).getByRole("link", { name: "Open the task →" });
    await expect(open).toHaveAttribute(
      "href",
      `/jobs/${p.victim.jobId}/tasks/${p.victim.instanceId}`,
    );
    await open.click();
    await expect(page).toHaveURL(
      new RegExp(`/jobs/${p.victim.jobId}/tasks/${p.victim.instanceId}$`),
    );
    const onTask = main(page).getByTestId("task-preemptions");
    await expect(onTask.locator(`li[data-preemption="${p.id}"]`)).toContainText("back ·");
    await expect(onTask.locator(`li[data-preemption="${p.id}"]`)).toContainText(p.reason);
    // Run 1 ended as preempted (the kill is not counted as a failure); the next run ran.
    const runs = main(page).getByTestId("task-runs");
    const run = async (n: number) => {
      const li = runs.locator(`li[data-run="${n}"]`);
      const toggle = li.getByRole("button").first();
      if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
      return li;
    };
    const preempted = await run(p.victim.runId);
    await expect(preempted).toHaveAttribute("data-state", "KILLED");
    await expect(preempted).toContainText("PREEMPTED");
    await expect(
      preempted.locator('[data-testid="transition"][data-state="PREEMPTING"]'),
    ).toBeVisible();
    // The run that came back reached RUNNING (the journey stopped its job afterwards).
    const back = await run(p.rescheduledRunId!);
    await expect(back.locator('[data-testid="transition"][data-state="RUNNING"]')).toBeVisible();
    await shot(page, "preemption-task-light");
  });

  test("keyboard: a focused row opens with Enter; the kind filter narrows the list", async ({
    page,
    baseURL,
  }) => {
    const api = adminApi(baseURL!);
    const { preemptions: fx } = readFixture();
    await page.goto("/preemptions?kind=INTRA_POOL");
    await expectRowsAsListed(page, api, { kind: "INTRA_POOL" });
    for (const r of await rows(page).all())
      await expect(r).toHaveAttribute("data-kind", "INTRA_POOL");
    await expect(row(page, fx.intra.id)).toContainText(fx.intra.victim.jobName);
    await row(page, fx.intra.id).focus();
    await page.keyboard.press("Enter");
    await expect(sheet(page).getByTestId("preemption-reason")).toHaveText(fx.intra.reason);
    expect(fx.intra.reason).toMatch(
      /^\/oncall\/reports was at its cpu entitlement \(allocation 8, entitlement 8\) while gang urgent-report\/0 \(priority 10\) waited for 1 core/,
    );
    await expect(sheet(page).getByTestId("waiting-gang")).toBeVisible();
    // Escape closes the drawer and gives the row that opened it the focus back.
    await page.keyboard.press("Escape");
    await expect(sheet(page)).toBeHidden();
    await expect(row(page, fx.intra.id)).toBeFocused();
    await page.getByRole("button", { name: "inter-pool fairness" }).click();
    await expect(page).toHaveURL(/kind=INTER_POOL/);
    await expectRowsAsListed(page, api, { kind: "INTER_POOL" });
  });

  test("the pool page shows what was taken from the pool, given to it and moved within it", async ({
    page,
  }) => {
    const { preemptions: fx } = readFixture();
    const inter = fx.all.filter(
      (x) => x.kind === "INTER_POOL" && x.victimPool === "/oncall/reports",
    );
    const within = fx.all.filter((x) => x.kind === "INTRA_POOL");
    await page.goto("/pools/oncall/adhoc");
    await page.getByRole("tab", { name: "preemptions" }).click();
    await expect(page).toHaveURL(/tab=preemptions/);
    const adhoc = main(page).getByTestId("pool-preemptions");
    await expect(adhoc.getByTestId("pool-preemption-totals")).toHaveText(
      `0 taken from it · ${inter.length} given to it · 0 within it`,
    );
    await expect(adhoc.locator('li[data-side="in"]')).toHaveCount(inter.length);
    await expect(adhoc.locator('li[data-side="in"]').first()).toContainText("from /oncall/reports");
    await shot(page, "pool-preemptions-light");

    await page.goto("/pools/oncall/reports?tab=preemptions");
    const reports = main(page).getByTestId("pool-preemptions");
    await expect(reports.getByTestId("pool-preemption-totals")).toHaveText(
      `${inter.length} taken from it · 0 given to it · ${within.length} within it`,
    );
    await expect(reports.locator('li[data-side="out"]')).toHaveCount(inter.length);
    await expect(reports.locator('li[data-side="within"]')).toHaveCount(within.length);
    // Each opens its numbers on /preemptions.
    await reports.locator('li[data-side="within"]').getByRole("link", { name: "Why →" }).click();
    await expect(page).toHaveURL(new RegExp(`/preemptions\\?.*open=${fx.intra.id}`));
    await expect(sheet(page).getByTestId("preemption-reason")).toHaveText(fx.intra.reason);
  });

  test("Export CSV downloads the rows of the current filters", async ({ page, baseURL }) => {
    const api = adminApi(baseURL!);
    const { preemptions: fx } = readFixture();
    const pool = fx.cameBack.beneficiaryPool!;
    await page.goto(`/preemptions?pool=${encodeURIComponent(pool)}&side=beneficiary`);
    const link = page.getByRole("link", { name: "Export CSV" });
    await expect(link).toHaveAttribute(
      "href",
      `/api/preemptions.csv?pool=${encodeURIComponent(pool)}&side=beneficiary`,
    );
    const download = page.waitForEvent("download");
    await link.click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(
      new RegExp(`^preemptions-${pool.slice(1).replace(/\//g, "-")}-\\d{8}-\\d{4}\\.csv$`),
    );
    const text = await (await page.request.get((await link.getAttribute("href"))!)).text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^id,time,kind,/);
    const expected = await listed(api, { pool, side: "beneficiary" });
    expect(expected.length).toBeGreaterThan(0);
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(expected);
  });

  test("says what preemption is when there is none, and when filters match nothing", async ({
    page,
  }) => {
    await page.goto("/preemptions?since=2001-01-01T00:00:00Z&until=2001-01-02T00:00:00Z");
    await expect(page.getByText("No preemption matches these filters")).toBeVisible();
    await page.goto("/preemptions?since=yesterday");
    const problem = page.getByRole("alert").filter({ hasText: "These filters cannot be shown" });
    await expect(problem).toContainText('"yesterday" is not a time');
    // The server is fine (the page stays live); retrying would not help, clearing the filters does.
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-live", "true");
    await expect(problem.getByRole("button", { name: "Try again" })).toHaveCount(0);
    await shot(page, "preemptions-bad-filter-light");
    await problem.getByRole("button", { name: "Clear filters" }).click();
    await expect(page).not.toHaveURL(/since=/);
    await expect(problem).toHaveCount(0);
  });

  test("dark theme", async ({ page }) => {
    const { preemptions: fx } = readFixture();
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/preemptions");
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect(rows(page).first()).toBeVisible();
    await expect(
      page.getByTestId("preemption-counts-chart").filter({ visible: true }),
    ).toBeVisible();
    await shot(page, "preemptions-dark");
    await page.goto(`/preemptions?open=${fx.cameBack.id}`);
    await expect(sheet(page).getByTestId("preemption-reason")).toHaveText(fx.cameBack.reason);
    await shot(page, "preemptions-detail-dark");
    await page.goto("/pools/oncall/reports?tab=preemptions");
    await expect(main(page).getByTestId("pool-preemptions").locator("li").first()).toBeVisible();
    await shot(page, "pool-preemptions-dark");
  });

  test("live: a preemption appears while on-call watches, and says when its victim is back, without a reload", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const api = adminApi(baseURL!);
    // One core for the pool (its cap, whatever the backlog takes): two 1-core jobs cannot both run.
    // A pool of this attempt's own: a retry (or --repeat-each) must not find the last one's.
    const pool = `/oncall/live-${test.info().retry}-${Date.now().toString(36)}`;
    await createPool(api, pool, 1, "One core: priorities decide who runs");
    await page.goto(`/preemptions?pool=${encodeURIComponent(pool)}`);
    await expect(page.getByText("No preemption matches these filters")).toBeVisible();
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-live", "true");

    const low = await api.jobs.create.mutate({
      pool,
      yaml: journeyJobYaml("live-low", { instances: 1, priority: 1 }),
    });
    await waitFor("live-low to run", async () => (await running(api, low.id)) === 1);
    const high = await api.jobs.create.mutate({
      pool,
      // Long enough that the row is seen before its victim is back, even on a busy machine.
      yaml: journeyJobYaml("live-high", { instances: 1, priority: 10, ms: 15_000 }),
    });

    // The row arrives by itself: live-low/0 made room for live-high/0. (The pool
    // may also be named by other pools' inter-pool preemptions while it waits:
    // every pool a preemption was for is "in" it.)
    const arrived = rows(page).filter({ hasText: "live-low/0" });
    await expect(arrived).toHaveCount(1, { timeout: 30_000 });
    await expect(arrived).toHaveAttribute("data-kind", "INTRA_POOL");
    await expect(arrived).toContainText("live-low/0");
    const cell = arrived.getByTestId("came-back");
    await expect(cell).not.toHaveAttribute("data-tone", "ok");
    await shot(page, "preemptions-live-light");
    // live-high runs 15 s and ends; live-low runs again, and the row says so.
    await expect(cell).toHaveAttribute("data-tone", "ok", { timeout: 60_000 });
    await expect(cell).toContainText("back ·");
    await api.jobs.stop.mutate({ id: low.id });
    await api.jobs.stop.mutate({ id: high.id }).catch(() => undefined);
  });
});
