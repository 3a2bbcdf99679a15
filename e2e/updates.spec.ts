/**
 * Rolling updates from the job page (issue #17 §5), on the scheduler of
 * `npm start` and its mesos-sim (the instances really run): an operator
 * edits a service's YAML, sees the change against the current version side
 * by side before confirming, starts the update in batches of one, watches
 * it move without reloading, pauses and resumes it, and compares any two
 * configuration versions afterwards.
 */
import { adminApi } from "./support/auth.ts";
import { createSpecPool, releaseReservation } from "./support/spec-pools.ts";
import { expect, type Page, test } from "./support/test.ts";

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
const main = (page: Page) => page.locator("main#main");

const POOL = "/infra/e2e-updates";

function serviceYaml(version: string): string {
  return `name: e2e-web
type: SERVICE
owningTeam: e2e
description: "A small web service the updates spec rolls forward"
instanceCount: 8
sla:
  priority: 5
  preemptible: true
defaultConfig:
  resource:
    cpuLimit: 0.25
    memLimitMb: 32
    diskLimitMb: 16
  command:
    shell: true
    value: 'echo "serving ${version}"; sleep 600'
  # An instance is done once its new run is healthy: a few seconds each, so
  # the update lasts long enough to be paused half-way on a busy machine.
  healthCheck:
    enabled: true
    type: 1
    initialIntervalSecs: 4
    intervalSecs: 4
    maxConsecutiveFailures: 3
    timeoutSecs: 2
    commandCheck:
      command: 'true'
`;
}

/** Replaces the editor's text as a paste would. */
async function typeYaml(page: Page, testId: string, yaml: string): Promise<void> {
  const editor = page.getByTestId(testId).locator(".cm-content");
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(yaml);
}

/** Confirms the dialog an action button opened, by its confirm label. */
async function confirm(page: Page, label: string): Promise<void> {
  const dialog = page.getByRole("alertdialog");
  await dialog.getByRole("button", { name: label }).click();
  await expect(dialog).toBeHidden();
}

test.describe("updates", () => {
  // Later specs need the /infra reservation this spec's pool takes.
  test.afterAll(() => releaseReservation(POOL));

  test("an operator updates a service from its page: diff before confirming, progress live, pause and resume, then any two versions compared", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(360_000);
    const api = adminApi(baseURL!);
    await createSpecPool(api, POOL, 2, "Room for the updates spec's service");
    const job = await api.jobs.create.mutate({ pool: POOL, yaml: serviceYaml("v1") });
    await page.goto(`/jobs/${job.id}`);
    await expect(main(page).getByTestId("job-state")).toHaveAttribute("data-state", "RUNNING", {
      timeout: 90_000,
    });
    const instances = main(page).getByTestId("instances-table");
    await expect(instances.getByTestId("instance-version")).toHaveCount(8);
    for (const v of await instances.getByTestId("instance-version").all())
      await expect(v).toHaveAttribute("data-version", "1");

    // Escape closes the dialog and gives the Update button that opened it the focus back.
    const update = main(page).getByTestId("update-job");
    const dialog = page.getByTestId("update-dialog");
    await update.click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(update).toBeFocused();

    // Edit the YAML: the review shows the change against version 1 before anything is sent.
    await update.click();
    await expect(dialog).toBeVisible();
    await typeYaml(page, "update-editor", serviceYaml("v2"));
    await dialog.getByTestId("option-batchSize").fill("1");
    // A bad option is named beside its field and blocks the review.
    await dialog.getByTestId("option-maxFailureInstances").fill("99");
    await expect(dialog.getByTestId("field-error")).toHaveText(
      "at most the job's 8 instances (got 99)",
    );
    await expect(dialog.getByRole("button", { name: "Review changes" })).toBeDisabled();
    await shot(page, "update-dialog-error-light");
    await dialog.getByTestId("option-maxFailureInstances").fill("0");
    // Started paused: nothing moves until it is resumed from the banner.
    await dialog.getByTestId("option-startPaused").check();
    await dialog.getByRole("button", { name: "Review changes" }).click();
    await expect(dialog).toHaveAttribute("data-step", "review");
    const diff = dialog.getByTestId("update-diff");
    await expect(diff.locator('[data-side="removed"]')).toContainText("serving v1");
    await expect(diff.locator('[data-side="added"]')).toContainText("serving v2");
    await expect(diff.getByTestId("diff-summary")).toContainText("+1");
    await shot(page, "update-review-light");
    await dialog.getByRole("button", { name: "Start update" }).click();
    await expect(dialog).toBeHidden();

    // The banner shows it held (started paused): resume it from there.
    const banner = main(page).getByTestId("update-banner");
    await expect(banner).toHaveAttribute("data-state", "PAUSED", { timeout: 30_000 });
    await expect(banner.getByTestId("update-batch")).toHaveCount(8);
    await expect(banner.getByTestId("update-done")).toHaveText("0");
    await expect(banner.getByRole("button", { name: "Pause" })).toBeDisabled();
    await banner.getByRole("button", { name: "Resume" }).click();
    await confirm(page, "Resume update");

    // It moves a batch of one at a time, and the page follows without a reload.
    await expect
      .poll(async () => Number(await banner.getByTestId("update-done").textContent()), {
        timeout: 90_000,
      })
      .toBeGreaterThanOrEqual(1);
    await expect(banner.locator('[data-batch-state="DONE"]').first()).toBeVisible();
    await shot(page, "update-progress-light");

    // Pause holds it where it is; resume lets it finish.
    await banner.getByRole("button", { name: "Pause" }).click();
    await confirm(page, "Pause update");
    await expect(banner).toHaveAttribute("data-state", "PAUSED");
    await expect(banner.getByRole("button", { name: "Resume" })).toBeEnabled();
    expect(Number(await banner.getByTestId("update-remaining").textContent())).toBeGreaterThan(0);
    await banner.getByRole("button", { name: "Resume" }).click();
    await confirm(page, "Resume update");
    await expect(banner).toBeHidden({ timeout: 120_000 });
    for (const v of await instances.getByTestId("instance-version").all())
      await expect(v).toHaveAttribute("data-version", "2", { timeout: 30_000 });

    // The Updates tab: the finished update, who started it, and its history.
    await page.getByRole("tab", { name: "updates" }).click();
    const row = main(page).getByTestId("update-row").first();
    await expect(row).toHaveAttribute("data-state", "SUCCEEDED");
    await expect(row).toContainText("v1 → v2");
    await expect(row.getByTestId("update-done")).toHaveText("8");
    await row.getByRole("button", { name: "History" }).click();
    // Both pauses are in it: the one it started with and the one half-way.
    await expect(row.getByTestId("update-history").locator('[data-state="PAUSED"]')).toHaveCount(2);

    // Any two versions side by side, picked by the reader (and kept in the URL).
    const versions = main(page).getByTestId("version-diff");
    await versions.getByTestId("diff-from").selectOption("1");
    await versions.getByTestId("diff-to").selectOption("2");
    await expect(page).toHaveURL(/from=1/);
    await expect(versions.locator('[data-side="added"]')).toContainText("serving v2");
    await shot(page, "updates-tab-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "updates-tab-dark");
    await versions.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "e2e/screenshots/version-diff-dark.png" });
  });
});
