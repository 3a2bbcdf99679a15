/**
 * Playwright's `test` with a page whose `goto` and `reload` return once React
 * has hydrated the page (`html[data-hydrated]`, set by the console's
 * providers): a click on server-rendered HTML before that is lost, which made
 * the first interaction after a navigation flaky on a busy machine.
 *
 * Every test also fails when the browser reported a React error that a
 * person would not see: a hydration mismatch (the server's first paint and
 * the browser's differ, so React renders the page again — #418, #423, #425)
 * or a server component that failed to render (#441). Production builds
 * report them only as minified codes.
 *
 * `simAgents` fails agents of the suite's mesos-sim, and brings back those a
 * test left failed when it ends, pass or fail (sim-agents.ts).
 */
import { test as base, expect, type Page } from "@playwright/test";
import { readFixture } from "./fixture.ts";
import { type SimAgents, simAgents } from "./sim-agents.ts";

export { expect, type Page } from "@playwright/test";

const REACT_ERROR = /Minified React error #(418|423|425|441)\b|Hydration failed|hydrat/i;

/** Collects the React errors a page reports, as "url: message". */
export function watchReactErrors(page: Page): string[] {
  const errors: string[] = [];
  const note = (text: string) => {
    if (REACT_ERROR.test(text)) errors.push(`${page.url()}: ${text.split("\n")[0]}`);
  };
  page.on("console", (msg) => {
    if (msg.type() === "error") note(msg.text());
  });
  page.on("pageerror", (err) => note(err.message));
  return errors;
}

export const test = base.extend<{ simAgents: SimAgents }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; it has none.
  simAgents: async ({}, use) => {
    const agents = simAgents(readFixture().simUrl);
    await use(agents);
    await agents.restoreAll();
  },
  page: async ({ page }, use) => {
    const reactErrors = watchReactErrors(page);
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
    expect(reactErrors, "React errors reported in the browser").toEqual([]);
  },
});
