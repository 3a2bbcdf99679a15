/**
 * An inter-pool preemption nobody waits for any more (issue #19 item 3):
 * /takers/taker's demand halves /takers/holder's entitlement, and its tasks
 * are admitted and placed on free hosts at once. /takers/holder gives back
 * 4 cores after the sustained periods — for /takers/taker, whose demand took
 * them: the drawer says so, the taker's Preemptions tab counts them as given
 * to it, and `peloton preemption list --side beneficiary` finds them.
 *
 * All of it on rack r3 (one 8-core host the journey leaves free), so the
 * rest of the cluster's work does not move the numbers:
 *
 *   /takers        cpu reservation 6, limit 6
 *   ├── holder     holder-work: 6 × 1 core, entitlement 6 → 4 when taker asks
 *   └── taker      taker-work: 2 × 1 core, entitlement 0 → 2, placed on r3's 2 free cores
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { adminApi, cliEnv } from "./support/auth.ts";
import { createPool, journeyJobYaml, running, waitFor } from "./support/preemption-journey.ts";

type Api = ReturnType<typeof adminApi>;

/** A pool that reserves (and may use) `cpu` cores, so the cluster's other demand cannot take them. */
async function reservedPool(api: Api, path: string, cpu: number) {
  await api.pools.create.mutate({
    path,
    config: {
      name: path.split("/").pop()!,
      owningTeam: "oncall",
      ldapGroups: [],
      description: "Beneficiary spec: holds r3's cores",
      resources: [
        { kind: "cpu", reservation: cpu, limit: cpu, share: 1 },
        { kind: "memory", reservation: 0, limit: 16_384, share: 1 },
        { kind: "disk", reservation: 0, limit: 20_000, share: 1 },
        { kind: "gpu", reservation: 0, limit: 0, share: 1 },
      ],
    },
  });
}

import { expect, type Page, test } from "./support/test.ts";

const root = resolve(import.meta.dirname, "..");
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });

// Quarantined (fixme): on the busy e2e cluster the preemptor may name other grown pools
// instead of /takers/taker as the holder's beneficiaries, so "preempted for the taker" is
// never seen (2 of the last 4 runs); and a retry finds /takers already made. It needs a
// cluster of its own, or to read the beneficiaries whoever they are (issue #19, closing note).
test.fixme("an inter-pool preemption is for the pool whose demand took the entitlement, though it waits for nothing", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const api = adminApi(baseURL!);
  await reservedPool(api, "/takers", 6);
  await createPool(api, "/takers/holder", 6, "Holds the parent's 6 cores");
  await createPool(api, "/takers/taker", 6, "Wants 2, and gets r3's free cores at once");
  const holder = await api.jobs.create.mutate({
    pool: "/takers/holder",
    yaml: journeyJobYaml("holder-work", { instances: 6, priority: 1, rack: "r3" }),
  });
  await waitFor("holder-work to run 6 tasks", async () => (await running(api, holder.id)) === 6);
  const taker = await api.jobs.create.mutate({
    pool: "/takers/taker",
    yaml: journeyJobYaml("taker-work", { instances: 2, priority: 1, rack: "r3" }),
  });
  try {
    await waitFor("taker-work to run 2 tasks", async () => (await running(api, taker.id)) === 2);
    const rows = await waitFor(
      "2 holder-work tasks preempted",
      async () => {
        const page_ = await api.preemptions.list.query({
          pool: "/takers/taker",
          side: "beneficiary",
          limit: 50,
        });
        return page_.items.length >= 2 ? page_.items : null;
      },
      90_000,
    );
    const p = rows[0]!;
    expect(p.victim.poolPath).toBe("/takers/holder");
    // Pools elsewhere in the busy e2e cluster may have grown in the same period: the
    // closest one is named first and the others counted.
    expect(p.reason).toMatch(
      /\/takers\/taker's demand took it( \(and \d+ more pools?\))?, its cpu entitlement 0 → 2/,
    );

    // The drawer: for whom, and why it was for them.
    await page.goto(`/preemptions?open=${p.id}`);
    const details = page.getByTestId("preemption-detail");
    await expect(details.getByTestId("preemption-reason")).toHaveText(p.reason);
    // The drawer's own line (the task's history below it names the pools too).
    const forWhom = details.locator("dl").getByTestId("beneficiary-pools");
    await expect(forWhom.getByRole("link", { name: "/takers/taker" })).toBeVisible();
    // Other pools that grew in the busy e2e cluster may be named after it: "their demand".
    await expect(forWhom).toContainText(/(its|their) demand took the entitlement/);
    await expect(details.getByTestId("beneficiaries")).toContainText(
      "cpu entitlement 0 cores → 2 cores",
    );
    await expect(details).toContainText("/takers");
    await expect(details).not.toContainText("no pool waited");
    await shot(page, "preemption-beneficiary-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "preemption-beneficiary-dark");
    await page.emulateMedia({ colorScheme: "light" });

    // The pool filter applies as you type and says when no pool has the path typed.
    await page.goto("/preemptions");
    const poolFilter = page.getByRole("combobox", { name: "Pool", exact: true });
    await poolFilter.fill("/takers/tak");
    await expect(page).toHaveURL(/pool=%2Ftakers%2Ftak(&|$)/);
    await expect(page.getByTestId("pool-missing")).toContainText("No pool /takers/tak exists now");
    await expect(poolFilter).toBeFocused();
    await poolFilter.fill("/takers/taker");
    await page.getByRole("combobox", { name: "Side of the pool" }).selectOption("beneficiary");
    await expect(page).toHaveURL(/pool=%2Ftakers%2Ftaker.*side=beneficiary/);
    await expect(page.getByTestId("pool-missing")).toHaveCount(0);
    await expect(
      page.locator(`tr[data-preemption="${p.id}"]`).filter({ visible: true }),
    ).toBeVisible();

    // The taker's Preemptions tab counts them as given to it.
    await page.goto("/pools/takers/taker?tab=preemptions");
    const totals = page.getByTestId("pool-preemption-totals");
    await expect(totals).toContainText(/\b[2-9]\d* given to it/);
    await expect(
      page.locator(`[data-testid="pool-preemptions"] a[href*="open=${p.id}"]`).first(),
    ).toBeVisible();

    // The CLI finds them on the beneficiary's side.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        resolve(root, "packages/cli/bin/peloton.mjs"),
        "preemption",
        "list",
        "--pool",
        "/takers/taker",
        "--side",
        "beneficiary",
      ],
      { env: cliEnv(baseURL) },
    );
    expect(stdout).toContain("/takers/holder");
    expect(stdout.match(/holder-work\/\d/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
  } finally {
    await api.jobs.stop.mutate({ id: holder.id });
    await api.jobs.stop.mutate({ id: taker.id });
  }
});
