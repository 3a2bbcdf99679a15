import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { playwrightCounts, vitestCounts, withWhy } from "../test-reports.ts";

const dir = mkdtempSync(join(tmpdir(), "test-reports-"));
function report(name: string, body: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(body));
  return file;
}

const EXPECT_FAILURE = [
  "\u001b[31mError: \u001b[2mexpect(\u001b[22m\u001b[31mlocator\u001b[39m).toHaveText()\u001b[22m failed",
  "",
  "Locator:  getByTestId('hosts-by-state-LOST')",
  'Expected: \u001b[32m"1"\u001b[39m',
  'Received: \u001b[31m"2"\u001b[39m',
  "Timeout:  10000ms",
].join("\n");

describe("withWhy", () => {
  it("adds the first lines of the error, without colours or blank lines", () => {
    expect(withWhy("a.spec.ts:3 › t", EXPECT_FAILURE)).toBe(
      "a.spec.ts:3 › t\n" +
        "          Error: expect(locator).toHaveText() failed · Locator:  getByTestId('hosts-by-state-LOST') · " +
        'Expected: "1" · Received: "2"',
    );
  });

  it("keeps a long error to one short line", () => {
    const why = withWhy("t", "x".repeat(1000)).split("\n")[1]!.trim();
    expect(why).toHaveLength(320);
    expect(why.endsWith("…")).toBe(true);
  });

  it("leaves the name alone when there is no error text", () => {
    expect(withWhy("t", undefined)).toBe("t");
    expect(withWhy("t", "\n  \n")).toBe("t");
  });
});

describe("playwrightCounts", () => {
  it("names each failed and retried test with its first attempt's error", () => {
    const file = report("e2e.json", {
      stats: { expected: 3, unexpected: 1, flaky: 1, skipped: 0 },
      suites: [
        {
          specs: [{ title: "passes", file: "a.spec.ts", line: 1, tests: [{ status: "expected" }] }],
          suites: [
            {
              specs: [
                {
                  title: "fails",
                  file: "b.spec.ts",
                  line: 9,
                  tests: [
                    {
                      status: "unexpected",
                      results: [{ error: { message: "first" } }, { error: { message: "retry" } }],
                    },
                  ],
                },
                {
                  title: "retried",
                  file: "b.spec.ts",
                  line: 20,
                  tests: [{ status: "flaky", results: [{ error: { message: "once" } }, {}] }],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(playwrightCounts(file)).toEqual({
      passed: 4,
      failed: 1,
      skipped: 0,
      failures: ["b.spec.ts:9 › fails\n          first"],
      flaky: ["b.spec.ts:20 › retried\n          once"],
    });
  });

  it("is null when the run wrote no report", () => {
    expect(playwrightCounts(join(dir, "none.json"))).toBeNull();
  });
});

describe("vitestCounts", () => {
  it("names each failed test by its file, relative to the root, with its error", () => {
    const file = report("unit.json", {
      numPassedTests: 5,
      numFailedTests: 1,
      numPendingTests: 1,
      numTodoTests: 1,
      testResults: [
        {
          name: "/repo/packages/x/test/a.test.ts",
          assertionResults: [
            { status: "passed", fullName: "a works" },
            {
              status: "failed",
              fullName: "a breaks",
              failureMessages: ["AssertionError: expected 1 to be 2\n    at a.test.ts:4"],
            },
          ],
        },
      ],
    });
    expect(vitestCounts(file, "/repo")).toEqual({
      passed: 5,
      failed: 1,
      skipped: 2,
      failures: [
        "packages/x/test/a.test.ts › a breaks\n          AssertionError: expected 1 to be 2 · at a.test.ts:4",
      ],
    });
  });
});
