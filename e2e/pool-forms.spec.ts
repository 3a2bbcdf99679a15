/**
 * Forms in human units, and safe (issue #19 item 5): a team lead types
 * memory in GB and the pool keeps MB; leaving an edited form asks first;
 * scaling a job past its pool's limit warns before it can be confirmed.
 *
 *   /formunits        cpu limit 8, memory limit 16 GB (16384 MB)
 *   ├── edit          the pool the form edits
 *   └── small         cpu limit 8: one 1-core job scaled to 20
 */
import { adminApi } from "./support/auth.ts";
import { createPool, journeyJobYaml, running, waitFor } from "./support/preemption-journey.ts";
import { expect, type Page, test } from "./support/test.ts";

const main = (page: Page) => page.locator("main#main");
const shot = async (page: Page, name: string) => {
  await page.screenshot({ path: `e2e/screenshots/${name}-light.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `e2e/screenshots/${name}-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
};
const memoryLimit = (page: Page) =>
  main(page).locator('input[data-field="resources.memory.limit"]');
const memoryUnit = (page: Page) =>
  main(page).getByRole("combobox", { name: "Unit of the memory limit" });

test.describe
  .serial("pool forms", () => {
    test.beforeAll(async ({ baseURL }) => {
      const api = adminApi(baseURL!);
      await createPool(api, "/formunits", 8, "Forms in human units (browser tests)");
      await createPool(api, "/formunits/edit", 8, "The pool the form edits");
      await createPool(api, "/formunits/small", 8, "A job is scaled past its limit here");
    });

    test("memory typed in GB is kept in MB; a unit typed with the number picks it; nonsense is named", async ({
      page,
      baseURL,
    }) => {
      const api = adminApi(baseURL!);
      await page.goto("/pools/formunits/edit?tab=edit");
      // 16384 MB reads as 16 GB.
      await expect(memoryLimit(page)).toHaveValue("16");
      await expect(memoryUnit(page)).toHaveValue("GB");

      await memoryLimit(page).fill("12");
      await expect(memoryLimit(page)).toHaveAttribute("data-megabytes", "12288");
      // The same amount in MB.
      await memoryUnit(page).selectOption("MB");
      await expect(memoryLimit(page)).toHaveValue("12288");
      // "1.5 GB" typed: GB is picked back, 1536 MB kept.
      await memoryLimit(page).fill("1.5 GB");
      await expect(memoryUnit(page)).toHaveValue("GB");
      await expect(memoryLimit(page)).toHaveAttribute("data-megabytes", "1536");
      await memoryLimit(page).blur();
      await expect(memoryLimit(page)).toHaveValue("1.5");

      // Not an amount: said beside the field, and nothing can be saved.
      await memoryLimit(page).fill("lots");
      await expect(
        main(page).getByText(/an amount ≥ 0, optionally followed by MB, GB or TB/),
      ).toBeVisible();
      await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();

      await memoryLimit(page).fill("12");
      await expect(page.getByRole("button", { name: "Save changes" })).toBeEnabled();
      await shot(page, "pool-form-units");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page).not.toHaveURL(/tab=edit/);
      const saved = await api.pools.get.query({ path: "/formunits/edit" });
      expect(saved.config.resources.find((r) => r.kind === "memory")?.limit).toBe(12_288);
    });

    test("leaving an edited form asks first; staying keeps the edit", async ({ page }) => {
      await page.goto("/pools/formunits/edit?tab=edit");
      await memoryLimit(page).fill("10");
      const nav = page.getByRole("navigation", { name: "Main" });

      // Stay: the question names the pool, the page and the edit stay.
      const asked = page.waitForEvent("dialog");
      const click = nav.getByRole("link", { name: "Jobs" }).click();
      const question = await asked;
      expect(question.type()).toBe("confirm");
      expect(question.message()).toBe(
        "Leave without saving? Your changes to /formunits/edit will be lost.",
      );
      await question.dismiss();
      await click;
      await expect(page).toHaveURL(/\/pools\/formunits\/edit/);
      await expect(memoryLimit(page)).toHaveValue("10");

      // Back asks too (the page keeps one guard entry while dirty); staying keeps the edit.
      const askedBack = page.waitForEvent("dialog");
      await page.evaluate(() => window.history.back());
      await (await askedBack).dismiss();
      await expect(page).toHaveURL(/\/pools\/formunits\/edit/);
      await expect(memoryLimit(page)).toHaveValue("10");

      // And so does the command palette's jump to a page.
      await page.keyboard.press("Control+k");
      const palette = page.getByRole("dialog", { name: "Search" });
      await palette.getByRole("combobox", { name: "Search" }).fill("audit");
      const askedPalette = page.waitForEvent("dialog");
      // The click returns once the question is answered.
      const pick = palette.getByRole("option", { name: /Audit/ }).first().click();
      await (await askedPalette).dismiss();
      await pick;
      await expect(page).toHaveURL(/\/pools\/formunits\/edit/);
      await expect(memoryLimit(page)).toHaveValue("10");

      // A reload or a closed tab gets the browser's own question.
      const unload = page.waitForEvent("dialog");
      void page.close({ runBeforeUnload: true });
      const before = await unload;
      expect(before.type()).toBe("beforeunload");
      await before.dismiss();
      expect(page.isClosed()).toBe(false);

      // Leave: the router goes on.
      page.once("dialog", (d) => void d.accept());
      await nav.getByRole("link", { name: "Jobs" }).click();
      await expect(page).toHaveURL(/\/jobs$/);
      // Nothing unsaved here: no question.
      await nav.getByRole("link", { name: "Pools" }).click();
      await expect(page).toHaveURL(/\/pools$/);
    });

    test("scaling a job past its pool's limit warns, in numbers, before it can be confirmed", async ({
      page,
      baseURL,
    }) => {
      const api = adminApi(baseURL!);
      const job = await api.jobs.create.mutate({
        pool: "/formunits/small",
        yaml: journeyJobYaml("scale-me", { instances: 1, priority: 1 }),
      });
      try {
        await waitFor("scale-me to run", async () => (await running(api, job.id)) === 1);
        await page.goto(`/jobs/${job.id}`);
        await page.getByTestId("job-actions").getByRole("button", { name: "Scale" }).click();
        const dialog = page.getByRole("alertdialog");
        await dialog.getByTestId("scale-input").fill("6");
        await expect(dialog.getByTestId("scale-beyond-limit")).toHaveCount(0);
        await dialog.getByTestId("scale-input").fill("20");
        const warning = dialog.getByTestId("scale-beyond-limit");
        await expect(warning).toContainText(
          "20 instances need 20 cores, beyond /formunits/small's limit of 8 cores: at most 8 can run at once",
        );
        const confirm = dialog.getByRole("button", { name: "Scale to 20" });
        await expect(confirm).toBeDisabled();
        await warning.getByRole("checkbox", { name: "Scale beyond the limit anyway" }).check();
        await expect(confirm).toBeEnabled();
        await shot(page, "job-scale-warning");
        await dialog.getByRole("button", { name: "Cancel" }).click();
        // Escape closes the dialog and gives the focus back to the button that opened it.
        const scale = page.getByTestId("job-actions").getByRole("button", { name: "Scale" });
        await scale.click();
        await expect(page.getByRole("alertdialog")).toBeVisible();
        await page.keyboard.press("Escape");
        await expect(page.getByRole("alertdialog")).toHaveCount(0);
        await expect(scale).toBeFocused();
        expect((await api.jobs.get.query({ id: job.id })).instanceCount).toBe(1);
      } finally {
        await api.jobs.stop.mutate({ id: job.id });
      }
    });
  });
