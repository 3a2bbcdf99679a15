/**
 * Host maintenance from the host page (issue 17 §3): a service with
 * sla.maximumUnavailableInstances 1 runs on two hosts; maintenance started
 * from the busier host's page (with a reason, confirmed) evicts its tasks
 * one at a time, live on the page, until the host is empty and DOWN; the
 * history keeps the reason; completing the maintenance brings it UP. An
 * unknown host has its own not-found page.
 */
import { adminApi } from "./support/auth.ts";
import { completeLeftMaintenance } from "./support/maintenance.ts";
import { waitFor } from "./support/preemption-journey.ts";
import { createSpecPool, releaseReservation } from "./support/spec-pools.ts";
import { expect, test } from "./support/test.ts";

const POOL = "/infra/e2e-maintenance";
const SHOTS = "e2e/screenshots";

/** Three half-core instances on racks r1/r2 (e2e-host-0 and e2e-host-1): one host holds two. */
function serviceYaml(name: string): string {
  return `name: ${name}
type: SERVICE
owningTeam: e2e
description: "A service moved off its host by the host maintenance spec"
instanceCount: 3
sla:
  priority: 5
  preemptible: true
  maximumUnavailableInstances: 1
defaultConfig:
  resource:
    cpuLimit: 0.5
    memLimitMb: 64
    diskLimitMb: 16
  command:
    value: "sleep 3600"
  constraint:
    orConstraint:
      constraints:
        - labelConstraint: { kind: HOST, condition: CONDITION_EQUAL, label: { key: rack, value: r1 }, requirement: 1 }
        - labelConstraint: { kind: HOST, condition: CONDITION_EQUAL, label: { key: rack, value: r2 }, requirement: 1 }
`;
}

test.describe("host maintenance", () => {
  // Later specs need the /infra reservation this spec's pool takes.
  test.afterAll(() => releaseReservation(POOL));
  // The host drained and the service, given back even when the test fails.
  const drained = new Set<string>();
  let service: string | undefined;
  test.afterEach(async ({ baseURL }) => {
    await completeLeftMaintenance(baseURL!, drained);
    drained.clear();
    if (service !== undefined) await adminApi(baseURL!).jobs.stop.mutate({ id: service });
    service = undefined;
  });

  test("start maintenance from the host page and watch the host empty, then complete it", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const api = adminApi(baseURL!);
    await createSpecPool(api, POOL, 2, "The host maintenance spec's service");
    const job = await api.jobs.create.mutate({ pool: POOL, yaml: serviceYaml("e2e-maintained") });
    service = job.id;
    const placed = await waitFor("the service's three instances to run", async () => {
      const { items } = await api.tasks.list.query({ jobId: job.id, limit: 10 });
      return items.length === 3 && items.every((t) => t.state === "RUNNING") ? items : null;
    });
    const perHost = new Map<string, number>();
    for (const t of placed) perHost.set(t.hostname!, (perHost.get(t.hostname!) ?? 0) + 1);
    const [host, count] = [...perHost.entries()].sort((a, b) => b[1] - a[1])[0]!;
    drained.add(host);

    // The hosts page links to the host's own page.
    await page.goto("/hosts");
    await page
      .locator(`tr[data-host="${host}"]`)
      .filter({ visible: true })
      .getByRole("link", { name: host })
      .click();
    await expect(page).toHaveURL(new RegExp(`/hosts/${host}$`));
    const state = page.getByTestId("host-page-state");
    await expect(state).toHaveAttribute("data-state", "UP");
    const tasks = page.getByTestId("host-task");
    await expect(tasks.filter({ hasText: "e2e-maintained/" })).toHaveCount(count);
    await expect(page.getByTestId("maintenance-history")).toContainText(
      "never been in maintenance",
    );
    await page.screenshot({ path: `${SHOTS}/host-page-light.png`, fullPage: true });

    await page.getByRole("button", { name: "Start maintenance" }).click();
    const dialog = page.getByRole("alertdialog", { name: `Start maintenance on ${host}?` });
    await dialog.getByRole("textbox", { name: "Reason" }).fill("kernel upgrade");
    await page.screenshot({ path: `${SHOTS}/host-maintenance-dialog-light.png` });
    await dialog.getByRole("button", { name: "Start maintenance" }).click();
    await expect(dialog).toBeHidden();

    // Live, without a reload: the evictions empty the host, which goes DOWN.
    await expect(page.getByTestId("eviction-progress")).toBeVisible();
    await expect(tasks.filter({ hasText: "e2e-maintained/" })).toHaveCount(0, { timeout: 90_000 });
    await expect(state).toHaveAttribute("data-state", "DOWN", { timeout: 30_000 });
    const history = page.getByTestId("maintenance-history");
    await expect(history).toContainText("Maintenance started");
    await expect(history).toContainText("kernel upgrade");
    await expect(history).toContainText("DRAINING → DRAINED");
    await expect(history).toContainText("DRAINED → DOWN");
    // The instances run elsewhere, none counted as failed.
    const moved = await api.tasks.list.query({ jobId: job.id, limit: 10 });
    expect(moved.items.filter((t) => t.hostname === host)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/host-page-down-light.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: `${SHOTS}/host-page-down-dark.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });

    await page.getByRole("button", { name: "Complete maintenance" }).click();
    await page
      .getByRole("alertdialog")
      .getByRole("button", { name: "Complete maintenance" })
      .click();
    await expect(state).toHaveAttribute("data-state", "UP", { timeout: 30_000 });
    await expect(history).toContainText("Maintenance completed");
  });

  test("an unknown host has its own not-found page", async ({ page }) => {
    // The status is 200, as for a missing pool: the app's loading shell is streamed before the
    // page finds out; the page itself is Next's not-found for the route.
    await page.goto("/hosts/no-such-host.example");
    await expect(page.getByRole("heading", { name: "No such host" })).toBeVisible();
    await expect(page.getByRole("link", { name: "All hosts" })).toBeVisible();
  });
});
