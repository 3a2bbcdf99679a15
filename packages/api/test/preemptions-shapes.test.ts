/** The pure parts of the preemption API: URL filters, durations, CSV cells and names, count series. */

import { preemptionRecord } from "@peloton/test-support/storage/preemption-builders.ts";
import { describe, expect, it } from "vitest";
import { bucketSecondsFor, countSeries } from "../src/preemptions/counts.ts";
import { CSV_HEADER, csvFilename, csvRow } from "../src/preemptions/csv.ts";
import {
  parseDuration,
  preemptionFiltersFromQuery,
  preemptionFiltersSchema,
  preemptionFiltersToQuery,
} from "../src/schemas/index.ts";

describe("filters in a query string", () => {
  it("round-trip, defaults left out", () => {
    const f = {
      pool: "/infra/batch",
      side: "victim" as const,
      subtree: true,
      job: "0b5c7f2e-1111-2222-3333-444455556666",
      instance: 3,
      kind: "INTER_POOL" as const,
      since: "24h",
    };
    const q = preemptionFiltersToQuery(f);
    expect(q.toString()).toBe(
      "pool=%2Finfra%2Fbatch&side=victim&subtree=1&job=0b5c7f2e-1111-2222-3333-444455556666&instance=3&kind=INTER_POOL&since=24h",
    );
    expect(preemptionFiltersFromQuery(q)).toEqual({ ...f, task: undefined, until: undefined });
    expect(preemptionFiltersToQuery({ side: "either", subtree: false }).toString()).toBe("");
  });

  it("drop what is not a value of their kind; the schema judges the rest", () => {
    const f = preemptionFiltersFromQuery(
      new URLSearchParams("side=left&kind=ALL&instance=x&pool="),
    );
    expect(f).toMatchObject({
      side: "either",
      kind: undefined,
      instance: undefined,
      pool: undefined,
    });
  });
});

describe("time bounds", () => {
  it.each([
    { text: "30m", ms: 30 * 60_000 },
    { text: "24h", ms: 86_400_000 },
    { text: "7d", ms: 7 * 86_400_000 },
    { text: "2w", ms: 14 * 86_400_000 },
    { text: "1y", ms: null },
    { text: "h", ms: null },
  ])("duration $text", ({ text, ms }) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it("take ISO times with a zone, durations back from now, and refuse the rest", () => {
    const before = Date.now();
    // An absolute bound and a relative one, parsed apart: together they would
    // have to stay ordered whatever day the test runs.
    const until = preemptionFiltersSchema.parse({ until: "2026-11-23T10:00:00Z" }).until;
    expect(until).toEqual(new Date("2026-11-23T10:00:00Z"));
    const parsed = preemptionFiltersSchema.parse({ since: "1h" });
    expect(Math.abs(parsed.since!.getTime() - (before - 3_600_000))).toBeLessThan(1000);
    expect(preemptionFiltersSchema.safeParse({ since: "last tuesday" }).success).toBe(false);
    expect(preemptionFiltersSchema.safeParse({ since: "2026-13-45T99:00Z" }).success).toBe(false);
  });
});

const record = () =>
  preemptionRecord({
    id: "7",
    victim: { jobName: "=cmd|calc" },
    reason: 'over by 6 cores, "quoted"',
    taskNow: null,
  });

describe("CSV", () => {
  it("one cell per header, quotes what needs it, defuses a formula in a job name", () => {
    const line = csvRow(record());
    expect(line.split(",").length).toBeGreaterThanOrEqual(CSV_HEADER.length);
    expect(
      line.startsWith(
        "7,2026-11-23T10:00:00.000Z,INTER_POOL,j,'=cmd|calc,2,1,t,1,RUNNING,PREEMPTING,/web,,,,,,,NON_SLACK,1,30,",
      ),
    ).toBe(true);
    expect(line.endsWith(',,,"over by 6 cores, ""quoted"""')).toBe(true);
  });

  it.each([
    { name: "everything", f: {}, file: "preemptions-20261123-1015.csv" },
    {
      name: "a pool and below, one kind",
      f: { pool: "/infra/batch", subtree: true, kind: "INTRA_POOL" as const },
      file: "preemptions-infra-batch-and-below-intra-pool-20261123-1015.csv",
    },
    {
      name: "an instance",
      f: { job: "0b5c7f2e-1111-2222-3333-444455556666", instance: 4 },
      file: "preemptions-job-0b5c7f2e-4-20261123-1015.csv",
    },
  ])("file name for $name", ({ f, file }) => {
    const parsed = preemptionFiltersSchema.parse(f);
    expect(csvFilename(parsed, new Date("2026-11-23T10:15:42Z"))).toBe(file);
  });
});

describe("count series", () => {
  it.each([
    { span: 60 * 60_000, bucket: 60 },
    { span: 24 * 3_600_000, bucket: 1800 },
    { span: 7 * 86_400_000, bucket: 3 * 3600 },
    { span: 30 * 86_400_000, bucket: 12 * 3600 },
    { span: 10 * 365 * 86_400_000, bucket: 30 * 86400 },
  ])("a span of $span ms reads in buckets of $bucket s", ({ span, bucket }) => {
    expect(bucketSecondsFor(span)).toBe(bucket);
  });

  it("aligns rows with every bucket of the range, zeros where nothing happened", () => {
    const at = (m: number) => new Date(Date.UTC(2026, 10, 23, 10, m));
    const c = countSeries(
      [
        { bucket: at(0), pool: "/web", out: 2, in: 0, within: 0 },
        { bucket: at(10), pool: "/web", out: 0, in: 1, within: 1 },
        { bucket: at(10), pool: "/ml", out: 0, in: 0, within: 5 },
      ],
      { since: at(3), until: at(25), bucketSeconds: 600 },
    );
    expect(c.buckets).toEqual([at(0), at(10), at(20)]);
    expect(c.pools).toEqual([
      { pool: "/ml", out: [0, 0, 0], in: [0, 0, 0], within: [0, 5, 0], total: 5 },
      { pool: "/web", out: [2, 0, 0], in: [0, 1, 0], within: [0, 1, 0], total: 4 },
    ]);
  });
});
