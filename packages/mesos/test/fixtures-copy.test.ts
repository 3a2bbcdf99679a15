import { existsSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturesDir, sharedFixturesDir } from "./support/fixtures.ts";

// The repository carries a copy of the shared fixtures; the shared folder is
// the contract, so the copy must stay byte-identical whenever both exist.
describe.runIf(existsSync(sharedFixturesDir))("the fixture copy", () => {
  it("holds exactly the shared fixtures, byte for byte", () => {
    const shared = readdirSync(sharedFixturesDir).sort();
    expect(readdirSync(fixturesDir).sort()).toEqual(shared);
    for (const name of shared) {
      const copy = readFileSync(resolve(fixturesDir, name));
      expect(copy.equals(readFileSync(resolve(sharedFixturesDir, name))), name).toBe(true);
    }
  });
});
