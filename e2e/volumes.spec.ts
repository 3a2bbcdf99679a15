/**
 * An operator's look at persistent volumes: a stateful service submitted
 * through the API (Peloton job YAML with a `volume`) gets one volume per
 * instance, which /volumes shows as the scheduler pins and creates them,
 * without a reload; filters live in the URL; a row opens its task, whose
 * page shows the same volume.
 */
import { adminApi } from "./support/auth.ts";
import { expect, type Page, test } from "./support/test.ts";

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
/** The page's content (a streamed page can briefly keep a hidden copy outside <main>). */
const main = (page: Page) => page.locator("main#main");
const rows = (page: Page) => main(page).locator("tbody tr[data-volume]").filter({ visible: true });

const JOB = "e2e-ledger";
const INSTANCES = 3;

/** A stateful service (a volume in its default config): simulated tasks, so any agent runs them. */
function statefulYaml(name: string, instances: number): string {
  return `name: ${name}
type: SERVICE
owningTeam: e2e
description: "A small stateful service: one persistent volume per instance"
instanceCount: ${instances}
sla:
  priority: 2
  preemptible: true
defaultConfig:
  resource:
    cpuLimit: 0.5
    memLimitMb: 64
    diskLimitMb: 16
  command:
    value: "sleep 600"
    environment:
      variables:
        - name: PELOTON_SIM_DURATION_MS
          value: "600000"
  volume:
    containerPath: /var/lib/ledger
    sizeMB: 1536
`;
}

test.describe("volumes", () => {
  test("a stateful job's volumes appear live, filter by host in the URL, and open their task", async ({
    page,
    baseURL,
  }) => {
    const api = adminApi(baseURL!);
    await page.goto("/volumes");
    await expect(page.getByRole("heading", { name: "Volumes" })).toBeVisible();
    await expect(main(page).getByTestId("live-indicator")).toHaveAttribute("data-live", "true");
    if ((await api.volumes.list.query({ limit: 1 })).items.length === 0) {
      // A first run: nothing stateful was placed yet, and the page says how to get a volume.
      await expect(main(page).getByText("No persistent volumes yet")).toBeVisible();
      await shot(page, "volumes-empty-light");
    }

    const { id: jobId } = await api.jobs.create.mutate({
      pool: "/infra/batch",
      yaml: statefulYaml(JOB, INSTANCES),
    });
    // Without a reload: pinned when placed, CREATED once their first launch went out.
    const mine = rows(page).filter({ hasText: JOB });
    await expect(mine).toHaveCount(INSTANCES, { timeout: 60_000 });
    await expect(mine.and(page.locator('[data-state="CREATED"]'))).toHaveCount(INSTANCES, {
      timeout: 60_000,
    });
    const first = mine.first();
    await expect(first).toContainText("instance 0");
    await expect(first).toContainText("1.5 GB");
    await expect(first).toContainText("/var/lib/ledger");
    await expect(first).toHaveAttribute("data-volume", `${jobId}-0`);
    await shot(page, "volumes-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "volumes-dark");
    await page.emulateMedia({ colorScheme: "light" });

    // The host filter is a link: it survives a reload.
    const host = (await first.getAttribute("data-host"))!;
    await main(page).getByRole("combobox", { name: "Host" }).selectOption(host);
    await expect(page).toHaveURL(new RegExp(`[?&]host=${host}(&|$)`));
    const onHost = await api.volumes.list.query({ host });
    await expect(rows(page)).toHaveCount(onHost.items.length);
    for (const v of onHost.items)
      await expect(rows(page).and(page.locator(`[data-volume="${v.id}"]`))).toBeVisible();
    await main(page).getByRole("combobox", { name: "Job" }).selectOption(jobId);
    await expect(page).toHaveURL(new RegExp(`job=${jobId}`));
    await page.reload();
    await expect(main(page).getByRole("combobox", { name: "Host" })).toHaveValue(host);
    const both = onHost.items.filter((v) => v.jobId === jobId);
    await expect(rows(page)).toHaveCount(both.length);
    await main(page)
      .getByRole("group", { name: "State" })
      .getByRole("button", { name: "DELETED" })
      .click();
    await expect(page).toHaveURL(/state=DELETED/);
    await expect(main(page).getByText("No volume matches these filters")).toBeVisible();
    await main(page).getByRole("button", { name: "Clear filters" }).click();
    await expect(page).not.toHaveURL(/host=|job=|state=/);
    await expect(mine).toHaveCount(INSTANCES);

    // Sort by size, largest first, is a link too.
    await main(page).getByRole("button", { name: /^Size/ }).click();
    await main(page).getByRole("button", { name: /^Size/ }).click();
    await expect(page).toHaveURL(/sort=size/);
    await expect(page).toHaveURL(/order=desc/);

    // A row opens the task that owns the volume; the task page shows the same volume.
    const second = rows(page).and(page.locator(`[data-volume="${jobId}-1"]`));
    const volumeHost = (await second.getAttribute("data-host"))!;
    await second.getByRole("link", { name: `instance 1 of ${JOB}` }).click();
    await expect(page).toHaveURL(new RegExp(`/jobs/${jobId}/tasks/1$`));
    const fact = main(page).getByTestId("task-volume");
    await expect(fact.getByTestId("volume-state")).toHaveAttribute("data-state", "CREATED");
    await expect(fact).toContainText("1.5 GB");
    await expect(fact).toContainText("/var/lib/ledger");
    await expect(fact).toContainText(`on ${volumeHost}`);
    await expect(main(page).getByTestId("task-host")).toContainText(volumeHost);
    await shot(page, "volume-task-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "volume-task-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await fact.getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/volumes\\?job=${jobId}$`));
    await expect(rows(page)).toHaveCount(INSTANCES);

    await api.jobs.stop.mutate({ id: jobId });
  });
});
