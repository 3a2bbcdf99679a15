/**
 * axe-core over every page of the console (apps/console/src/app), in light
 * and dark, with the e2e cluster's real ids (issue #19 item 8): the WCAG 2.0
 * and 2.1 A/AA rules — text contrast 4.5:1 in both palettes, ARIA allowed
 * for each role, <dl> structure, links not told apart by colour alone,
 * accessible names that start with the visible label, among others. Every
 * list page, each tab of a job and a pool, a task, a host, the preemption
 * drawer, the three 404s and sign-in. A serious or critical violation fails,
 * naming the rule, what it means and where; moderate and minor findings are
 * left to review.
 */
import AxeBuilder from "@axe-core/playwright";
import { E2E_AGENTS, readFixture } from "./support/fixture.ts";
import { expect, type Page, test } from "./support/test.ts";

type Fixture = ReturnType<typeof readFixture>;

/**
 * Every page route, with an id of something that exists where the route
 * takes one (read when the test runs: global-setup writes the fixture).
 */
const PAGES: { name: string; path: (fx: Fixture) => string }[] = [
  { name: "overview", path: () => "/" },
  { name: "pools", path: () => "/pools" },
  { name: "pool", path: (fx) => `/pools${fx.preemptions.cameBack.victim.poolPath}` },
  { name: "pool-edit", path: (fx) => `/pools${fx.preemptions.cameBack.victim.poolPath}?tab=edit` },
  {
    name: "pool-history",
    path: (fx) => `/pools${fx.preemptions.cameBack.victim.poolPath}?tab=history`,
  },
  {
    name: "pool-preemptions",
    path: (fx) => `/pools${fx.preemptions.cameBack.victim.poolPath}?tab=preemptions`,
  },
  { name: "pool-missing", path: () => "/pools/no/such/pool" },
  { name: "jobs", path: () => "/jobs" },
  { name: "job-new", path: () => "/jobs/new" },
  { name: "job", path: (fx) => `/jobs/${fx.backlogJobs[0]!.id}` },
  { name: "job-config", path: (fx) => `/jobs/${fx.backlogJobs[0]!.id}?tab=config` },
  { name: "job-updates", path: (fx) => `/jobs/${fx.backlogJobs[0]!.id}?tab=updates` },
  { name: "job-events", path: (fx) => `/jobs/${fx.backlogJobs[0]!.id}?tab=events` },
  { name: "job-logs", path: (fx) => `/jobs/${fx.preemptions.cameBack.victim.jobId}?tab=logs` },
  { name: "job-missing", path: () => "/jobs/00000000-0000-4000-8000-000000000000" },
  {
    name: "task",
    path: (fx) =>
      `/jobs/${fx.preemptions.cameBack.victim.jobId}/tasks/${fx.preemptions.cameBack.victim.instanceId}`,
  },
  { name: "preemptions", path: () => "/preemptions" },
  { name: "preemption-detail", path: (fx) => `/preemptions?open=${fx.preemptions.cameBack.id}` },
  { name: "hosts", path: () => "/hosts" },
  // A CPU agent of the e2e cluster, with some of the backlog on it.
  { name: "host", path: () => `/hosts/${E2E_AGENTS[1]!.hostname}` },
  { name: "host-missing", path: () => "/hosts/no-such-host" },
  { name: "volumes", path: () => "/volumes" },
  { name: "audit", path: () => "/audit" },
  { name: "tokens", path: () => "/tokens" },
  { name: "admin-users", path: () => "/admin/users" },
  { name: "admin-teams", path: () => "/admin/teams" },
];

/** Serious and critical violations, one line each: rule, what it means, where (first 3). */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}${v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : ""}`,
    );
}

async function settle(page: Page) {
  await expect(page.locator("main#main")).toBeVisible();
  // Skeletons give way to data; live updates keep the network busy, so wait for the skeletons.
  await expect(page.locator("main#main .animate-pulse.bg-surface-2")).toHaveCount(0, {
    timeout: 15_000,
  });
}

for (const scheme of ["light", "dark"] as const) {
  test.describe(`axe, ${scheme}`, () => {
    test.use({ colorScheme: scheme });
    // axe reads the whole page: a large table takes a while on a busy machine.
    test.describe.configure({ timeout: 180_000 });
    for (const { name, path: pathOf } of PAGES) {
      test(`${name}: no serious or critical violation`, async ({ page }) => {
        const path = pathOf(readFixture());
        await page.goto(path);
        await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /dark/ : /^(?!.*dark)/);
        await settle(page);
        expect(await violations(page), `${path} in ${scheme}`).toEqual([]);
      });
    }
    test("sign-in: no serious or critical violation", async ({ browser }) => {
      const context = await browser.newContext({ colorScheme: scheme, storageState: undefined });
      const page = await context.newPage();
      await page.goto("/sign-in");
      await expect(page.getByRole("button", { name: /sign in/i }).first()).toBeVisible();
      expect(await violations(page), `/sign-in in ${scheme}`).toEqual([]);
      await context.close();
    });
  });
}
