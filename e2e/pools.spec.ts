/**
 * A team lead's journey through resource pools, on the demo tree with work
 * waiting in every team's pool (e2e/support/serve.ts): the tree, one pool,
 * a reservation raised with its preview, the history; a reservation the
 * parent cannot hold, refused beside the field; a pool made with the CLI.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { cliEnv } from "./support/auth.ts";
import { releaseReservation } from "./support/spec-pools.ts";
import { expect, type Page, test } from "./support/test.ts";

const root = resolve(import.meta.dirname, "..");
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });

/**
 * The page's content. While React streams a page in, a finished part can sit
 * for a moment in a hidden holder outside <main> beside the shown copy; the
 * specs look inside <main> only.
 */
const main = (page: Page) => page.locator("main#main");
const cpuReservation = (page: Page) =>
  main(page).locator('input[data-field="resources.cpu.reservation"]');
const fieldError = (page: Page, field: string) =>
  main(page).locator(`div:has(> input[data-field="${field}"])`).getByTestId("field-error");

test.describe("resource pools", () => {
  // Later specs need the /infra reservation the CLI's pool takes.
  test.afterAll(() => releaseReservation("/infra/cli-team"));

  test("a team lead raises a pool's cpu reservation: preview, save, new bars, history diff", async ({
    page,
  }) => {
    await page.goto("/pools");
    await expect(page.getByRole("heading", { name: "Resource pools" })).toBeVisible();
    const tree = main(page).getByTestId("pool-tree");
    for (const path of ["/DefaultResPool", "/infra", "/infra/batch", "/ml", "/web"])
      await expect(tree.locator(`tr[data-pool="${path}"]`)).toBeVisible();
    const webCpuBefore = Number(
      await tree
        .locator('tr[data-pool="/web"] [data-testid="resource-bar"][data-kind="cpu"]')
        .getAttribute("data-entitlement"),
    );
    await expect(main(page).getByTestId("live-indicator")).toHaveAttribute("data-live", "true");
    await shot(page, "pools-light");

    // Open the team's pool from the tree.
    await tree.locator('tr[data-pool="/web"]').getByRole("link", { name: "web" }).click();
    await expect(page).toHaveURL(/\/pools\/web$/);
    await expect(page.getByRole("heading", { name: "/web" })).toBeVisible();
    const cpuPanel = main(page).getByTestId("kind-panel-cpu");
    await expect(cpuPanel.getByTestId("reservation")).toContainText("8 cores");
    await expect(cpuPanel.getByTestId("explanation")).toContainText("Reserved 8 cores.");
    await shot(page, "pool-light");

    // Raise the reservation: the preview says who gains and who loses, before saving.
    await page.getByRole("tab", { name: "edit" }).click();
    await expect(page).toHaveURL(/tab=edit/);
    await cpuReservation(page).fill("10");
    const moves = main(page).getByTestId("preview-moves");
    await expect(moves).toBeVisible();
    await expect(moves.locator('tr[data-pool="/web"] [data-kind="cpu"]')).toContainText("+");
    await expect(moves.locator('tr[data-pool="/DefaultResPool"] [data-kind="cpu"]')).toContainText(
      "−",
    );
    await shot(page, "pool-edit-preview-light");
    await page.getByRole("button", { name: "Save changes" }).click();

    // Back on the overview: the new reservation and a larger entitlement, in the bars too.
    await expect(page).not.toHaveURL(/tab=edit/);
    await expect(cpuPanel.getByTestId("reservation")).toContainText("10 cores");
    const bar = cpuPanel.getByTestId("resource-bar");
    await expect(bar).toHaveAttribute("data-reservation", "10");
    expect(Number(await bar.getAttribute("data-entitlement"))).toBeGreaterThan(webCpuBefore);
    await expect(main(page).getByTestId("entitlement-chart")).toBeVisible();

    // The history names who changed what: reservation 8 → 10.
    await page.getByRole("tab", { name: "history" }).click();
    const entry = main(page).getByTestId("history-entry").first();
    await expect(entry).toHaveAttribute("data-action", "UPDATE");
    const diff = entry.locator('[data-field="resources.cpu.reservation"]');
    await expect(diff.getByTestId("diff-before")).toHaveText("8 cores");
    await expect(diff.getByTestId("diff-after")).toHaveText("10 cores");
    await shot(page, "pool-history-light");

    // The tree shows the new numbers too.
    await page.goto("/pools");
    await expect(
      main(page).locator('tr[data-pool="/web"] [data-testid="resource-bar"][data-kind="cpu"]'),
    ).toHaveAttribute("data-reservation", "10");
  });

  test("a reservation larger than the parent can hold is refused beside the field, and nothing is saved", async ({
    page,
  }) => {
    await page.goto("/pools/web?tab=history");
    // Count only once the history has rendered (a count does not wait).
    await expect(main(page).getByTestId("history-entry").first()).toBeVisible();
    const before = await main(page).getByTestId("history-entry").count();
    expect(before).toBeGreaterThan(0);
    await page.getByRole("tab", { name: "edit" }).click();
    const saved = await cpuReservation(page).inputValue();
    // Within /web's own limit (32), beyond what the root has left for it (64 − 48 for the others).
    await cpuReservation(page).fill("20");
    const error = fieldError(page, "resources.cpu.reservation");
    await expect(error).toHaveText(
      "/web cpu: reservation 20 (with its sibling pools' 48, 68) exceeds the root (the cluster capacity)'s reservation 64 by 4",
    );
    await expect(cpuReservation(page)).toHaveAttribute("aria-invalid", "true");
    await expect(main(page).getByTestId("preview-invalid")).toBeVisible();
    await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
    await shot(page, "pool-edit-error-light");

    // The schema's own checks show as the user types, before the server is asked.
    await cpuReservation(page).fill("-1");
    await expect(error).toContainText("reservation must be ≥ 0");

    // Nothing was saved: the stored reservation and the history are as they were.
    await page.goto("/pools/web?tab=history");
    await expect(main(page).getByTestId("history-entry")).toHaveCount(before);
    await page.goto("/pools/web?tab=edit");
    await expect(cpuReservation(page)).toHaveValue(saved);
  });

  test("creates a child pool from the page, and deletes it again", async ({ page }) => {
    await page.goto("/pools/infra");
    await page.getByRole("button", { name: "New child pool" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.locator('input[data-field="name"]').fill("scratch");
    await dialog.locator('input[data-field="owningTeam"]').fill("infra");
    await dialog.locator('input[data-field="resources.cpu.reservation"]').fill("1");
    await expect(dialog.getByTestId("preview-moves")).toBeVisible();
    await shot(page, "pool-create-light");
    await dialog.getByRole("button", { name: "Create pool" }).click();
    await expect(page).toHaveURL(/\/pools\/infra\/scratch$/);
    await expect(page.getByRole("heading", { name: "/infra/scratch" })).toBeVisible();

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete pool" }).click();
    await expect(page).toHaveURL(/\/pools\/infra$/);
    await expect(page.getByText("/infra/scratch")).toHaveCount(0);
    // A pool with children says why it cannot be deleted instead of hiding the action.
    await expect(page.getByRole("button", { name: "Delete" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Delete" })).toHaveAttribute(
      "title",
      /only a leaf pool can be deleted/,
    );
  });

  test("a pool created with `peloton respool create` from Peloton's YAML is found by lookup and in the console", async ({
    page,
    baseURL,
  }) => {
    const peloton = (...args: string[]) =>
      promisify(execFile)(
        process.execPath,
        [resolve(root, "packages/cli/bin/peloton.mjs"), ...args],
        // As the admin: the CLI sends PELOTON_TOKEN as its Bearer token.
        { env: cliEnv(baseURL) },
      );
    const created = await peloton(
      "respool",
      "create",
      "/infra/cli-team",
      resolve(root, "e2e/fixtures/cli-team-respool.yaml"),
    );
    expect(created.stdout).toMatch(/^Resource Pool [0-9a-f-]{36} created at \/infra\/cli-team\n$/);
    const id = created.stdout.split(" ")[2];
    const lookup = await peloton("respool", "lookup", "/infra/cli-team");
    expect(lookup.stdout).toContain(id);
    expect(lookup.stdout).toMatch(/\ncpu\s+2\s+8\s+1\s+ELASTIC\s/);

    await page.goto("/pools");
    const row = main(page).locator('tr[data-pool="/infra/cli-team"]');
    await expect(row).toBeVisible();
    await expect(row).toContainText("cli-team");
    await row.getByRole("link", { name: "cli-team" }).click();
    await expect(main(page).getByTestId("kind-panel-cpu").getByTestId("reservation")).toContainText(
      "2 cores",
    );
    await page.getByRole("tab", { name: "history" }).click();
    await expect(main(page).getByTestId("history-entry").first()).toHaveAttribute(
      "data-action",
      "CREATE",
    );
  });

  test("looks right in the dark theme", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/pools");
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect(main(page).getByTestId("pool-tree")).toBeVisible();
    await shot(page, "pools-dark");
    await page.goto("/pools/web");
    await expect(main(page).getByTestId("entitlement-chart")).toBeVisible();
    await shot(page, "pool-dark");
    await page.goto("/pools/web?tab=edit");
    await cpuReservation(page).fill("20");
    await expect(fieldError(page, "resources.cpu.reservation")).toBeVisible();
    await shot(page, "pool-edit-error-dark");
    await cpuReservation(page).fill("11");
    await expect(main(page).getByTestId("preview-moves")).toBeVisible();
    await shot(page, "pool-edit-preview-dark");
  });
});
