import { readFixture } from "./support/fixture.ts";
import { expect, type Page, test } from "./support/test.ts";

// Next keeps pages it navigated away from rendered but hidden: only visible rows count.
const auditRow = (page: Page, action: string, target: string) =>
  page
    .locator("tr[data-audit]")
    .filter({ visible: true })
    .filter({ hasText: action })
    .filter({ hasText: target });

/** A mutation through the API over HTTP, as the CLI makes it (tRPC with superjson). */
async function mutate(page: Page, procedure: string, input: unknown): Promise<void> {
  const res = await page.request.post(`/api/trpc/${procedure}`, {
    data: { json: input },
    headers: readFixture().apiHeaders,
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Waits until the host is UP again: the specs after this one count on every host being UP. */
async function hostBackUp(page: Page, hostname: string): Promise<void> {
  const input = encodeURIComponent(JSON.stringify({ json: { hostname } }));
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/trpc/hosts.get?input=${input}`, {
          headers: readFixture().apiHeaders,
        });
        return res.ok()
          ? ((await res.json()) as { result: { data: { json: { state: string } } } }).result.data
              .json.state
          : `HTTP ${res.status()}`;
      },
      { timeout: 90_000 },
    )
    .toBe("UP");
}

test.describe("audit log", () => {
  test("a maintenance started in the console is recorded with who, what, before and after", async ({
    page,
  }) => {
    // The host goes all the way DOWN on the cluster and back UP: slower than a bare drain was.
    test.setTimeout(150_000);
    await page.goto("/hosts");
    const host = page.locator('tr[data-host="e2e-host-4"]').filter({ visible: true });
    await host.getByRole("button", { name: "Start maintenance" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Start maintenance" }).click();
    await expect(host).toHaveAttribute("data-state", /DRAINING|DRAINED|DOWN/);

    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Audit log" })
      .click();
    await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
    const row = auditRow(page, "host.startMaintenance", "e2e-host-4");
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("audit-summary")).toContainText("state UP → DRAINING");
    await row.click();
    await expect(page).toHaveURL(/[?&]open=\d+/);
    const detail = page.getByTestId("audit-detail").filter({ visible: true });
    await expect(detail.locator('[data-field="state"]')).toContainText("UP");
    await expect(detail.locator('[data-field="state"]')).toContainText("DRAINING");
    await page.screenshot({ path: "e2e/screenshots/audit-light.png", fullPage: true });

    // The overview's activity feed has it too.
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Overview" })
      .click();
    const feed = page.getByTestId("activity").filter({ visible: true });
    await expect(feed.locator('li[data-kind="change"]').first()).toContainText(
      "host.startMaintenance e2e-host-4",
    );
    await page.goBack();

    // The row links to the host it changed.
    await row.getByRole("link", { name: "e2e-host-4" }).click();
    await expect(page).toHaveURL(/\/hosts\/e2e-host-4$/);
    await mutate(page, "hosts.completeMaintenance", { hostname: "e2e-host-4", reason: "" });
    await hostBackUp(page, "e2e-host-4");
  });

  test("filters live in the URL, and new changes appear without a reload", async ({ page }) => {
    // A maintenance round trip: the host goes DOWN on the cluster and comes back UP.
    test.setTimeout(150_000);
    await page.goto("/audit?action=host.");
    await expect(page.getByRole("combobox", { name: "Did" })).toHaveValue("host.");
    const rows = page.locator("tr[data-audit]").filter({ visible: true });
    await expect(rows.first()).toBeVisible();
    for (const text of await rows.getByRole("cell").allTextContents())
      expect(text).not.toMatch(/pool\.|job\./);

    // The rows appear without a reload. Not counted: the maintenance loop's own rows (the host
    // going DOWN and coming back UP, by the system) arrive in between, when the loop gets to them.
    await mutate(page, "hosts.startMaintenance", { hostname: "e2e-host-5", reason: "disk swap" });
    try {
      await expect(auditRow(page, "host.startMaintenance", "e2e-host-5")).toBeVisible();
    } finally {
      await mutate(page, "hosts.completeMaintenance", { hostname: "e2e-host-5", reason: "" });
      await hostBackUp(page, "e2e-host-5");
    }
    await expect(auditRow(page, "host.completeMaintenance", "e2e-host-5")).toBeVisible();

    await page.getByRole("combobox", { name: "Who" }).selectOption({ index: 1 });
    await expect(page).toHaveURL(/actor=/);
    await page.reload();
    await expect(page.getByRole("combobox", { name: "Did" })).toHaveValue("host.");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: "e2e/screenshots/audit-dark.png", fullPage: true });
  });
});
