/** The jobs page's URL state: every filter survives a round trip, defaults stay out of links. */
import { describe, expect, it } from "vitest";
import {
  listInput,
  parseLabels,
  readJobsQuery,
  writeJobsQuery,
} from "../src/components/jobs/jobs-query.ts";

const read = (qs: string) => readJobsQuery(new URLSearchParams(qs));

describe("jobs query in the URL", () => {
  const cases: { name: string; qs: string; back: string }[] = [
    { name: "defaults are no query at all", qs: "", back: "" },
    {
      name: "every filter, sort and page",
      qs: "state=RUNNING,PENDING&type=BATCH&pool=/infra/batch&owner=alice&label=team=ml,tier=1&q=etl&sort=priority&order=asc&cursor=abc",
      back: "?state=RUNNING%2CPENDING&type=BATCH&pool=%2Finfra%2Fbatch&owner=alice&label=team%3Dml%2Ctier%3D1&q=etl&sort=priority&order=asc&cursor=abc",
    },
    {
      name: "unknown states, types and sorts are dropped",
      qs: "state=RUNNING,SLEEPING&type=CRON&sort=colour",
      back: "?state=RUNNING",
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      expect(writeJobsQuery(read(c.qs))).toBe(c.back);
      expect(writeJobsQuery(read(c.back.replace(/^\?/, "")))).toBe(c.back);
    });

  it("reads labels as key=value pairs, values may hold '='", () => {
    expect(parseLabels("team=ml, tier=1,broken,x=a=b")).toEqual([
      { key: "team", value: "ml" },
      { key: "tier", value: "1" },
      { key: "x", value: "a=b" },
    ]);
  });

  it("asks the API for one page with the filters, the pool only when given, and why jobs wait", () => {
    expect(listInput(read("state=FAILED&label=team=ml"))).toEqual({
      states: ["FAILED"],
      types: [],
      labels: [{ key: "team", value: "ml" }],
      text: "",
      sort: "createdAt",
      order: "desc",
      limit: 100,
      cursor: null,
      waiting: true,
    });
  });
});
