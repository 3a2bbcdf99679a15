/**
 * What `npm test`'s summary says of each runner: its counts from the JSON
 * report it wrote, and each failed (or retried) test by name with the start
 * of its error.
 */
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { stripVTControlCharacters } from "node:util";

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Each failed test ("file › title"), and each that passed only on a retry: the summary names them. */
  failures?: string[];
  flaky?: string[];
}

/**
 * A failed test's name with the start of its error (for an expect: what, on
 * which locator, expected and received), so that the summary — the part of a
 * CI log that is read, and sometimes the only part kept — says what went
 * wrong, not only where.
 */
export function withWhy(name: string, error: string | undefined): string {
  if (error === undefined) return name;
  const lines = stripVTControlCharacters(error)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .slice(0, 4);
  const why = lines.join(" · ");
  if (why === "") return name;
  return `${name}\n          ${why.length > 320 ? `${why.slice(0, 319)}…` : why}`;
}

/** Vitest's JSON report (`--reporter=json`), or null when the run wrote none. */
export function vitestCounts(file: string, root: string): Counts | null {
  if (!existsSync(file)) return null;
  const r = JSON.parse(readFileSync(file, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults?: {
      name: string;
      assertionResults?: { status: string; fullName: string; failureMessages?: string[] }[];
    }[];
  };
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + r.numTodoTests,
    failures: (r.testResults ?? []).flatMap((f) =>
      (f.assertionResults ?? [])
        .filter((a) => a.status === "failed")
        .map((a) => withWhy(`${relative(root, f.name)} › ${a.fullName}`, a.failureMessages?.[0])),
    ),
  };
}

interface PlaywrightSpec {
  title: string;
  file: string;
  line: number;
  tests: { status: string; results?: { error?: { message?: string } }[] }[];
}
interface PlaywrightSuite {
  specs?: PlaywrightSpec[];
  suites?: PlaywrightSuite[];
}

function specsOf(suite: PlaywrightSuite): PlaywrightSpec[] {
  return [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specsOf)];
}

/** Playwright's JSON report, or null when the run wrote none. */
export function playwrightCounts(file: string): Counts | null {
  if (!existsSync(file)) return null;
  const r = JSON.parse(readFileSync(file, "utf8")) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    suites?: PlaywrightSuite[];
  };
  const specs = (r.suites ?? []).flatMap(specsOf);
  // The first attempt's error: a retry that failed the same way adds nothing,
  // and one that failed otherwise (state left by the first) misleads.
  const titled = (status: string) =>
    specs.flatMap((s) =>
      s.tests
        .filter((t) => t.status === status)
        .map((t) =>
          withWhy(
            `${s.file}:${s.line} › ${s.title}`,
            t.results?.find((r) => r.error)?.error?.message,
          ),
        ),
    );
  return {
    passed: r.stats.expected + r.stats.flaky,
    failed: r.stats.unexpected,
    skipped: r.stats.skipped,
    failures: titled("unexpected"),
    flaky: titled("flaky"),
  };
}
