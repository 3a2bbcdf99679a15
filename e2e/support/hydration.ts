/**
 * The server's first paint and the browser's must agree (a mismatch makes
 * React render the page again): every test of a describe block fails when
 * the browser reported a hydration error.
 */
import { type test as base, expect } from "@playwright/test";

export function failOnHydrationErrors(test: typeof base): void {
  let errors: string[] = [];
  test.beforeEach(({ page }) => {
    errors = [];
    page.on("console", (msg) => {
      if (msg.type() === "error" && /hydrat/i.test(msg.text())) errors.push(msg.text());
    });
  });
  test.afterEach(() => expect(errors).toEqual([]));
}
