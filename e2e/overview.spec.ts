import type { APIRequestContext } from "@playwright/test";
import { readFixture } from "./support/fixture.ts";
import { expect, test } from "./support/test.ts";

/** The API's overview figures (superjson over GET: numbers are plain JSON). */
async function summary(request: APIRequestContext) {
  const res = await request.get("/api/trpc/overview.summary", {
    headers: readFixture().apiHeaders,
  });
  const body = (await res.json()) as {
    result: {
      data: {
        json: { pools: number; jobs: number; tasks: number; tasksByState: Record<string, number> };
      };
    };
  };
  return body.result.data.json;
}

test.describe("cluster overview", () => {
  test("shows the cluster's figures as the API counts them, and the pool tree", async ({
    page,
    request,
  }) => {
    const fx = readFixture();
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Cluster overview" })).toBeVisible();
    await expect(page.getByTestId("stat-hosts")).toHaveText(String(fx.hosts));
    for (const [state, n] of Object.entries(fx.hostsByState)) {
      await expect(page.getByTestId(`hosts-by-state-${state}`)).toHaveText(String(n));
    }
    // Jobs and tasks move as the scheduler works, and earlier specs add pools
    // and jobs: the page shows what the API counts at the same moment, live.
    await expect
      .poll(async () => {
        const api = await summary(request);
        const shown = async (id: string) => (await page.getByTestId(id).textContent())?.trim();
        const wrong: string[] = [];
        // The stat counts the pools below the root, as the pools card does.
        if ((await shown("stat-pools")) !== String(api.pools - 1))
          wrong.push(`pools ${api.pools - 1}`);
        if ((await shown("stat-jobs")) !== String(api.jobs)) wrong.push(`jobs ${api.jobs}`);
        if ((await shown("stat-tasks")) !== String(api.tasks)) wrong.push(`tasks ${api.tasks}`);
        for (const [state, n] of Object.entries(api.tasksByState))
          if (n > 0 && (await shown(`tasks-by-state-${state}`)) !== String(n))
            wrong.push(`${state} ${n}`);
        return wrong;
      })
      .toEqual([]);
    const api = await summary(request);
    expect(api.pools).toBeGreaterThanOrEqual(fx.pools);
    expect(api.jobs).toBeGreaterThanOrEqual(fx.jobs);
    expect(api.tasks).toBeGreaterThanOrEqual(fx.tasks);
    expect(api.tasksByState.RUNNING ?? 0).toBeGreaterThan(0);
    const table = page.getByTestId("pools-table");
    for (const path of fx.poolPaths)
      await expect(table.locator(`tr[data-pool="${path}"]`)).toBeVisible();
    await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-live", "true");
    await page.screenshot({ path: "e2e/screenshots/overview-light.png", fullPage: true });
  });

  test("a job count opens the jobs filtered to that state", async ({ page }) => {
    await page.goto("/");
    await page
      .getByTestId("jobs-by-state")
      .getByRole("link", { name: /RUNNING/ })
      .click();
    await expect(page).toHaveURL(/\/jobs\?state=RUNNING$/);
    await expect(page.getByRole("button", { name: "RUNNING", pressed: true })).toBeVisible();
  });

  test("switches to dark and back, and follows the system setting by default", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/");
    await expect(page.locator("html")).toHaveClass(/dark/);
    await page.screenshot({ path: "e2e/screenshots/overview-dark.png", fullPage: true });
    // system → light
    await page.getByRole("button", { name: /Theme: system/ }).click();
    await expect(page.locator("html")).not.toHaveClass(/dark/);
  });

  test("`/` opens the command palette, and a pool hit opens the pool's page", async ({ page }) => {
    await page.goto("/");
    await page.locator("body").press("/");
    const search = page.getByRole("combobox", { name: "Search" });
    await expect(search).toBeFocused();
    await search.fill("training");
    // Jobs come first in the palette; the arrows move to the pool.
    const pool = page.getByRole("option", { name: /^\/ml\/training(?!\/)/ });
    await expect(pool).toBeVisible();
    while ((await pool.getAttribute("aria-selected")) !== "true") await search.press("ArrowDown");
    await search.press("Enter");
    await expect(page).toHaveURL(/\/pools\/ml\/training$/);
    await expect(page.getByRole("heading", { name: "/ml/training" })).toBeVisible();
  });

  test("a pool row opens the pool's page", async ({ page }) => {
    await page.goto("/");
    await page.getByTestId("pools-table").getByRole("link", { name: "batch", exact: true }).click();
    await expect(page).toHaveURL(/\/pools\/infra\/batch$/);
  });

  test("navigation lists only pages that work", async ({ page }) => {
    await page.goto("/");
    const links = page.getByRole("navigation", { name: "Main" }).getByRole("link");
    for (const href of await links.evaluateAll((els) => els.map((e) => e.getAttribute("href")))) {
      const res = await page.request.get(href!);
      expect(res.status(), href!).toBe(200);
    }
  });

  test("updates without a reload when the cluster changes, and says it is live", async ({
    page,
    simAgents,
  }) => {
    const fx = readFixture();
    await page.goto("/");
    const indicator = page.getByTestId("live-indicator").filter({ visible: true });
    await expect(indicator).toHaveAttribute("data-live", "true");
    const down = page.getByTestId("hosts-by-state-LOST").filter({ visible: true });
    const before = fx.hostsByState.LOST ?? 0;
    await expect(down).toHaveText(String(before));
    // An agent fails and comes back, in the console's own mesos-sim.
    await simAgents.fail("e2e-host-1");
    await expect(down).toHaveText(String(before + 1));
    await simAgents.restore("e2e-host-1");
    await expect(down).toHaveText(String(before));
  });
});
