import { E2E_AGENTS } from "./support/fixture.ts";
import { completeLeftMaintenance } from "./support/maintenance.ts";
import { expect, type Page, test } from "./support/test.ts";

// Next keeps pages it navigated away from rendered but hidden: only visible rows count.
const row = (page: Page, hostname: string) =>
  page.locator(`tr[data-host="${hostname}"]`).filter({ visible: true });
const rows = (page: Page) => page.locator("tbody tr[data-host]").filter({ visible: true });

test.describe("hosts", () => {
  // The maintenance test's host is UP again even when that test fails.
  test.afterEach(({ baseURL }) => completeLeftMaintenance(baseURL!, ["e2e-host-0"]));

  test("lists the cluster's hosts with attributes, resources, GPUs and state", async ({ page }) => {
    await page.goto("/hosts");
    await expect(page.getByRole("heading", { name: "Hosts" })).toBeVisible();
    for (const agent of E2E_AGENTS) {
      await expect(row(page, agent.hostname)).toHaveAttribute("data-state", "UP");
    }
    await expect(row(page, "e2e-lost-0")).toHaveAttribute("data-state", "LOST");
    const gpu = row(page, "e2e-gpu-0");
    await expect(gpu).toContainText("gpu_model=a100");
    await expect(gpu.getByRole("meter", { name: "GPUs of e2e-gpu-0" })).toHaveAttribute("max", "4");
    await expect(gpu.getByRole("meter", { name: "CPU of e2e-gpu-0" })).toHaveAttribute("max", "8");
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-live", "true");
    await page.screenshot({ path: "e2e/screenshots/hosts-light.png", fullPage: true });
  });

  test("filters and sort live in the URL and survive a reload", async ({ page }) => {
    await page.goto("/hosts");
    await page.getByRole("group", { name: "State" }).getByRole("button", { name: "LOST" }).click();
    await expect(page).toHaveURL(/state=LOST/);
    await expect(rows(page)).toHaveCount(1);
    await page.reload();
    await expect(rows(page)).toHaveCount(1);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.getByRole("combobox", { name: "Zone" }).selectOption("us-east-1b");
    await expect(page).toHaveURL(/zone=us-east-1b/);
    // Zone b: e2e-host-1, -3, -5 and e2e-gpu-1.
    await expect(rows(page)).toHaveCount(4);
    await page.getByRole("button", { name: /^GPU/ }).click();
    await page.getByRole("button", { name: /^GPU/ }).click();
    await expect(page).toHaveURL(/sort=gpu&order=desc|order=desc.*sort=gpu|sort=gpu.*order=desc/);
    await expect(rows(page).first()).toHaveAttribute("data-host", "e2e-gpu-1");
  });

  test("an agent that fails is LOST and comes back UP, without a reload", async ({
    page,
    simAgents,
  }) => {
    await page.goto("/hosts");
    await expect(row(page, "e2e-host-1")).toHaveAttribute("data-state", "UP");
    await simAgents.fail("e2e-host-1");
    await expect(row(page, "e2e-host-1")).toHaveAttribute("data-state", "LOST");
    await simAgents.restore("e2e-host-1");
    await expect(row(page, "e2e-host-1")).toHaveAttribute("data-state", "UP");
  });

  test("maintenance asks first, with a reason; the empty host goes DOWN; complete brings it UP", async ({
    page,
  }) => {
    await page.goto("/hosts");
    const host = row(page, "e2e-host-0");
    await host.getByRole("button", { name: "Start maintenance" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Start maintenance on e2e-host-0?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("textbox", { name: "Reason" }).fill("kernel upgrade");
    await page.screenshot({ path: "e2e/screenshots/hosts-maintenance-dialog.png" });
    await dialog.getByRole("button", { name: "Start maintenance" }).click();
    await expect(dialog).toBeHidden();
    // No task holds resources there: it drains at once and goes DOWN on the cluster.
    await expect(host).toHaveAttribute("data-state", "DOWN", { timeout: 20_000 });
    await host.getByRole("button", { name: "Complete maintenance" }).click();
    await page
      .getByRole("alertdialog")
      .getByRole("button", { name: "Complete maintenance" })
      .click();
    await expect(host).toHaveAttribute("data-state", "UP", { timeout: 20_000 });
  });

  test("dark theme, and the header search jumps to a host", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/");
    await page.locator("body").press("/");
    const search = page.getByRole("combobox", { name: "Search" });
    await search.fill("e2e-gpu");
    await expect(page.getByRole("option", { name: "e2e-gpu-0 host · UP" })).toBeVisible();
    await search.press("Enter");
    await expect(page).toHaveURL(/\/hosts\/e2e-gpu-0$/);
    await expect(page.getByRole("heading", { name: "e2e-gpu-0" })).toBeVisible();
    await page.goto("/hosts");
    await expect(row(page, "e2e-gpu-0")).toBeVisible();
    await page.screenshot({ path: "e2e/screenshots/hosts-dark.png", fullPage: true });
  });
});
