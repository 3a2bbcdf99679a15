/** README.md's environment table is the schema's: regenerate with `npm run docs:env -- --write`. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { environmentTable, README, withTable } from "../docs/environment-table.ts";

describe("README's environment table", () => {
  it("matches the environment schema", () => {
    const readme = readFileSync(README, "utf8");
    expect(readme, "run `npm run docs:env -- --write`").toBe(withTable(readme, environmentTable()));
  });
});
