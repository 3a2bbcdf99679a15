/**
 * The command palette, keyboard only: Ctrl-K and `/` open it (not while
 * typing in a field), a job is found by the id prefix the lists show, and an
 * action found there runs after the same confirmation as on the job page.
 */
import { adminApi } from "./support/auth.ts";
import { createSpecPool, releaseReservation } from "./support/spec-pools.ts";
import { expect, type Page, test } from "./support/test.ts";

// A new pool per run: a retry must not trip over the first attempt's pool.
const POOL_NAME = `e2e-palette-${Date.now().toString(36)}`;
const POOL = `/infra/${POOL_NAME}`;

function longJobYaml(name: string): string {
  return `name: ${name}
type: BATCH
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
    value: "sleep 600"
    environment:
      variables:
        - name: PELOTON_SIM_DURATION_MS
          value: "600000"
`;
}

const palette = (page: Page) => page.getByRole("dialog", { name: "Search" });
const input = (page: Page) => palette(page).getByRole("combobox", { name: "Search" });

test.describe("command palette", () => {
  // Later specs need the /infra reservation this spec's pool takes.
  test.afterAll(() => releaseReservation(POOL));

  test("opens with Ctrl-K and /, finds a job by its id prefix, and runs an action after asking", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const api = adminApi(baseURL!);
    await createSpecPool(api, POOL, 1, "Jobs the palette spec finds and stops");
    const { id } = await api.jobs.create.mutate({ pool: POOL, yaml: longJobYaml("e2e-palette") });
    const prefix = id.slice(0, 8);

    await page.goto("/");
    // Ctrl-K opens it with the search focused; Escape closes it.
    await page.keyboard.press("Control+k");
    await expect(input(page)).toBeFocused();
    await page.screenshot({ path: "e2e/screenshots/palette-light.png" });
    await page.keyboard.press("Escape");
    await expect(palette(page)).toBeHidden();

    // Clicked open from the header, Escape gives the header's button the focus back.
    const opener = page.getByRole("button", { name: /^Search or run a command/ });
    await opener.click();
    await expect(input(page)).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(palette(page)).toBeHidden();
    await expect(opener).toBeFocused();

    // `/` opens it too, but is a character while typing in a field.
    await page.goto("/jobs");
    const filter = page.getByRole("main").getByRole("searchbox").first();
    if (await filter.isVisible()) {
      await filter.focus();
      await page.keyboard.press("/");
      await expect(palette(page)).toBeHidden();
      await filter.fill("");
      await filter.blur();
    }
    await page.locator("body").press("/");
    await expect(input(page)).toBeFocused();

    // The id prefix the jobs list shows finds the job; Enter opens it.
    await page.keyboard.type(prefix);
    const option = palette(page)
      .getByRole("option", { name: /e2e-palette/ })
      .filter({
        hasText: `job ${prefix}`,
      });
    await expect(option).toBeVisible();
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: "e2e/screenshots/palette-dark.png" });
    await page.emulateMedia({ colorScheme: "light" });
    await page.screenshot({ path: "e2e/screenshots/palette-results-light.png" });
    // The first row is the first action; arrows move to the job itself.
    while ((await option.getAttribute("aria-selected")) !== "true")
      await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    // A job page renders on the server: slow on a loaded machine.
    await expect(page).toHaveURL(new RegExp(`/jobs/${id}$`), { timeout: 30_000 });

    // An action: Stop, confirmed in the job page's own words, all from the keyboard.
    await page.keyboard.press("Control+k");
    await page.keyboard.type(prefix);
    const stop = palette(page).getByRole("option", { name: "Stop job e2e-palette" });
    await expect(stop).toBeVisible();
    while ((await stop.getAttribute("aria-selected")) !== "true")
      await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog", { name: "Stop e2e-palette?" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Stop job" })).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(dialog.getByRole("button", { name: "Stop job" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect
      .poll(async () => (await api.jobs.get.query({ id })).goalState, { timeout: 15_000 })
      .toBe("KILLED");

    // A stopped job offers Start, no longer Stop.
    await opener.click();
    await page.keyboard.type(prefix);
    const start = palette(page).getByRole("option", { name: "Start job e2e-palette" });
    await expect(start).toBeVisible();
    await expect(palette(page).getByRole("option", { name: "Stop job e2e-palette" })).toHaveCount(
      0,
    );
    // Its confirmation cancelled, the focus is back on the header's button, not on <body>.
    while ((await start.getAttribute("aria-selected")) !== "true")
      await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    const asked = page.getByRole("alertdialog", { name: "Start e2e-palette again?" });
    await expect(asked).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(asked).toBeHidden();
    await expect(opener).toBeFocused();
  });
});
