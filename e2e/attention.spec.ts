/**
 * The overview's "needs attention", as on-call meets it: a service that
 * crash-loops and a host an operator drained appear, each linking to where
 * it is fixed; and relative times tick on their own, between refreshes.
 * What this spec changes it puts back (the host comes back up, the service
 * is stopped), so the specs after it see the cluster as before.
 */
import { adminApi } from "./support/auth.ts";
import { createSpecPool, releaseReservation } from "./support/spec-pools.ts";
import { expect, type Page, test } from "./support/test.ts";

// A new pool per run: a retry must not trip over the first attempt's pool.
const POOL_NAME = `e2e-attention-${Date.now().toString(36)}`;
const POOL = `/infra/${POOL_NAME}`;
// A host no other spec drains (the audit spec counts its own drains of e2e-host-4 and -5).
const HOST = "e2e-host-3";
const attention = (page: Page) => page.getByTestId("attention-card");

/** A service whose every run fails at once: its instances wait out a growing restart backoff. */
function failingServiceYaml(name: string): string {
  return `name: ${name}
type: SERVICE
owningTeam: e2e
instanceCount: 1
sla:
  priority: 1
  preemptible: true
defaultConfig:
  resource:
    cpuLimit: 0.5
    memLimitMb: 64
    diskLimitMb: 16
  command:
    value: "exit 3"
    environment:
      variables:
        - name: PELOTON_SIM_DURATION_MS
          value: "200"
        - name: PELOTON_SIM_EXIT_CODE
          value: "3"
`;
}

test.describe("needs attention", () => {
  // Later specs need the /infra reservation this spec's pool takes.
  test.afterAll(() => releaseReservation(POOL));

  test("a crash-looping service and a drained host appear and link to where they are fixed; times tick", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const api = adminApi(baseURL!);
    await createSpecPool(api, POOL, 1, "A failing service for the needs-attention spec");
    const service = await api.jobs.create.mutate({
      pool: POOL,
      yaml: failingServiceYaml("e2e-crash-loop"),
    });
    await api.hosts.startMaintenance.mutate({ hostname: HOST, reason: "e2e: disk swap" });
    try {
      await page.goto("/");
      const card = attention(page);
      const hostItem = card.locator(`li[data-item="host-${HOST}"]`);
      // The first read of a busy cluster can take a while on a loaded machine.
      await expect(hostItem).toContainText(`Host ${HOST} is D`, { timeout: 30_000 });
      await expect(hostItem).toContainText("e2e: disk swap");
      // The restart backoff doubles from 2 s: within a minute the service is seen waiting it out.
      const crashItem = card.locator(`li[data-item="crash-${service.id}"]`);
      await expect(crashItem).toContainText("e2e-crash-loop is crash-looping", {
        timeout: 90_000,
      });
      await page.screenshot({
        path: "e2e/screenshots/overview-attention-light.png",
        fullPage: true,
      });
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({
        path: "e2e/screenshots/overview-attention-dark.png",
        fullPage: true,
      });
      await page.emulateMedia({ colorScheme: "light" });

      // Relative times move by themselves: the host's "since … ago" changes with no action of
      // ours (every second while it reads seconds, within a minute once it reads minutes).
      const since = hostItem.locator("time");
      const before = await since.textContent();
      await expect.poll(() => since.textContent(), { timeout: 75_000 }).not.toBe(before);

      // Each item links to where it is fixed.
      await hostItem.getByRole("link").click();
      await expect(page).toHaveURL(new RegExp(`/hosts/${HOST}$`), { timeout: 30_000 });
      await expect(page.getByRole("heading", { name: HOST })).toBeVisible();
      await page.goto("/");
      await attention(page)
        .locator(`li[data-item="crash-${service.id}"]`)
        .getByRole("link")
        .click();
      await expect(page).toHaveURL(new RegExp(`/jobs/${service.id}$`), { timeout: 30_000 });
    } finally {
      await api.hosts.completeMaintenance.mutate({ hostname: HOST });
      const job = await api.jobs.get.query({ id: service.id });
      await api.jobs.stop.mutate({ id: service.id, version: job.version });
    }
  });
});
