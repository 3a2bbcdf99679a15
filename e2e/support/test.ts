/**
 * Playwright's `test` with a page whose `goto` and `reload` return once React
 * has hydrated the page (`html[data-hydrated]`, set by the console's
 * providers): a click on server-rendered HTML before that is lost, which made
 * the first interaction after a navigation flaky on a busy machine.
 */
import { test as base } from "@playwright/test";

export { expect, type Page } from "@playwright/test";

export const test = base.extend({
  page: async ({ page }, use) => {
    const hydrated = () => page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await hydrated();
      return response;
    };
    const reload = page.reload.bind(page);
    page.reload = async (options) => {
      const response = await reload(options);
      await hydrated();
      return response;
    };
    await use(page);
  },
});
