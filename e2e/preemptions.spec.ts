/**
 * /preemptions as on-call uses it after "my task was killed". The history
 * comes from the fixture (serve.ts records it with the engine's decisions);
 * every expectation is read from the fixture, so the spec runs unchanged
 * against real preemptions once the fixture is written from them.
 */
import { expect, type Page, test } from "@playwright/test";
import { formatResource } from "../apps/console/src/lib/format.ts";
import { openGateway } from "../packages/storage/src/index.ts";
import { readFixture } from "./support/fixture.ts";

// Next keeps pages it navigated away from rendered but hidden: only visible rows count.
const rows = (page: Page) => page.locator("tr[data-preemption]").filter({ visible: true });
const row = (page: Page, id: string) =>
  page.locator(`tr[data-preemption="${id}"]`).filter({ visible: true });
const sheet = (page: Page) => page.getByTestId("preemption-detail");
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });

test.describe("preemptions", () => {
  test("on-call: filter by the victim's pool, open the row, read the rule and its numbers, see that it came back", async ({
    page,
  }) => {
    const { preemptions: fx } = readFixture();
    const p = fx.cameBack;
    const task = `${p.victim.jobName}/${p.victim.instanceId}`;
    await page.goto("/preemptions");
    await expect(page.getByRole("heading", { name: "Preemptions", exact: true })).toBeVisible();
    await expect(rows(page)).toHaveCount(Math.min(fx.all.length, 50));
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-live", "true");

    // Filter by the pool the task ran in, as the victim's pool (the known pools are suggested).
    const pool = page.getByRole("combobox", { name: "Pool", exact: true });
    await pool.fill(p.victim.poolPath);
    await pool.press("Enter");
    await page.getByRole("combobox", { name: "Side of the pool" }).selectOption("victim");
    await expect(page).toHaveURL(
      new RegExp(`pool=${encodeURIComponent(p.victim.poolPath)}.*side=victim`),
    );
    const fromPool = fx.all.filter((x) => x.victimPool === p.victim.poolPath);
    await expect(rows(page)).toHaveCount(fromPool.length);
    for (const r of await rows(page).all())
      await expect(r).toHaveAttribute("data-victim-pool", p.victim.poolPath);
    await expect(row(page, p.id)).toContainText(task);
    await shot(page, "preemptions-light");

    // Open it: the rule in words, and the numbers that decided it.
    await row(page, p.id).getByRole("cell").last().click();
    const details = sheet(page);
    await expect(details.getByRole("heading", { name: `${task} preempted` })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`open=${p.id}`));
    await expect(details.getByTestId("preemption-reason")).toHaveText(p.reason);
    const cpu = details.getByTestId("preemption-numbers").locator('tr[data-kind="cpu"]');
    for (const n of [p.cpu.allocation, p.cpu.entitlement, p.cpu.excess, p.cpu.victim])
      await expect(cpu).toContainText(formatResource("cpu", n));
    if (p.beneficiaryPool)
      await expect(details.getByTestId("beneficiaries")).toContainText(p.beneficiaryPool);

    // Whether it came back, and the way to its task.
    expect(p.rescheduledRunId).not.toBeNull();
    await expect(details.getByTestId("detail-came-back")).toHaveAttribute("data-tone", "ok");
    await expect(details.getByTestId("detail-came-back")).toContainText(
      `run ${p.rescheduledRunId}`,
    );
    await expect(details.getByRole("link", { name: "Open the task →" })).toHaveAttribute(
      "href",
      `/jobs/${p.victim.jobId}/tasks/${p.victim.instanceId}`,
    );
    const history = details.getByTestId("task-preemptions");
    await expect(history.locator(`li[data-preemption="${p.id}"]`)).toContainText("back ·");
    await shot(page, "preemptions-detail-light");

    // The open row is part of the link: a reload shows the same thing.
    await page.reload();
    await expect(sheet(page).getByTestId("preemption-reason")).toHaveText(p.reason);
    await page.keyboard.press("Escape");
    await expect(sheet(page)).toBeHidden();
    await expect(page).not.toHaveURL(/open=/);
  });

  test("keyboard: a focused row opens with Enter; the kind filter narrows the list", async ({
    page,
  }) => {
    const { preemptions: fx } = readFixture();
    await page.goto("/preemptions?kind=INTRA_POOL");
    const intra = fx.all.filter((x) => x.kind === "INTRA_POOL");
    await expect(rows(page)).toHaveCount(intra.length);
    for (const r of await rows(page).all())
      await expect(r).toHaveAttribute("data-kind", "INTRA_POOL");
    await expect(row(page, fx.intra.id)).toContainText(fx.intra.victim.jobName);
    await row(page, fx.intra.id).focus();
    await page.keyboard.press("Enter");
    await expect(sheet(page).getByTestId("preemption-reason")).toHaveText(fx.intra.reason);
    await expect(sheet(page).getByTestId("waiting-gang")).toBeVisible();
    await page.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "inter-pool fairness" }).click();
    await expect(page).toHaveURL(/kind=INTER_POOL/);
    await expect(rows(page)).toHaveCount(fx.all.length - intra.length);
  });

  test("Export CSV downloads the rows of the current filters", async ({ page }) => {
    const { preemptions: fx } = readFixture();
    const pool = fx.killed.beneficiaryPool!;
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
    const expected = fx.all.filter((x) => x.beneficiaryPool === pool).map((x) => x.id);
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
  });

  test("dark theme", async ({ page }) => {
    const { preemptions: fx } = readFixture();
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/preemptions");
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect(rows(page).first()).toBeVisible();
    await shot(page, "preemptions-dark");
    await page.goto(`/preemptions?open=${fx.killed.id}`);
    await expect(sheet(page).getByTestId("preemption-reason")).toHaveText(fx.killed.reason);
    await shot(page, "preemptions-detail-dark");
  });

  test("live: when a victim runs again, its row says so without a reload", async ({ page }) => {
    const fx = readFixture();
    const p = fx.preemptions.killed;
    await page.goto("/preemptions");
    const cell = row(page, p.id).getByTestId("came-back");
    await expect(cell).not.toHaveAttribute("data-tone", "ok");
    const gateway = openGateway(fx.databaseUrl, { max: 1 });
    try {
      // What the job manager does when the victim's next run reaches RUNNING.
      await gateway.transaction((tx) =>
        tx.preemptions.markRescheduled(p.victim.taskId, p.victim.runId + 1, new Date()),
      );
    } finally {
      await gateway.close();
    }
    await expect(cell).toHaveAttribute("data-tone", "ok");
    await expect(cell).toContainText("back ·");
  });
});
