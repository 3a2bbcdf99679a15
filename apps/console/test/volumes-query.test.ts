/** The volumes page's URL state: every filter survives a round trip, defaults stay out of links. */
import { describe, expect, it } from "vitest";
import {
  isFiltered,
  listInput,
  NO_FILTERS,
  readVolumesQuery,
  writeVolumesQuery,
} from "../src/components/volumes/volumes-query.ts";

const read = (qs: string) => readVolumesQuery(new URLSearchParams(qs));
const JOB = "4915f694-67a2-4c9a-9940-85ef067f2b33";

describe("volumes query in the URL", () => {
  const cases: { name: string; qs: string; back: string }[] = [
    { name: "defaults are no query at all", qs: "", back: "" },
    { name: "the default sort and order stay out", qs: "sort=job&order=asc", back: "" },
    {
      name: "every filter, sort and page",
      qs: `state=INITIALIZED,DELETED&host=node-7&job=${JOB}&q=ledger&sort=size&order=desc&cursor=abc`,
      back: `?state=INITIALIZED%2CDELETED&host=node-7&job=${JOB}&q=ledger&sort=size&order=desc&cursor=abc`,
    },
    {
      name: "unknown states and sorts are dropped",
      qs: "state=CREATED,MOUNTED&sort=colour&order=sideways",
      back: "?state=CREATED",
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      expect(writeVolumesQuery(read(c.qs))).toBe(c.back);
      expect(writeVolumesQuery(read(c.back.replace(/^\?/, "")))).toBe(c.back);
    });

  it("asks the API for one page with only the filters that are set", () => {
    expect(listInput(read(`host=node-7&job=${JOB}&sort=host`))).toEqual({
      states: [],
      host: "node-7",
      jobId: JOB,
      text: "",
      sort: "host",
      order: "asc",
      limit: 100,
      cursor: null,
    });
    expect(listInput(read(""))).not.toHaveProperty("host");
    expect(listInput(read(""))).not.toHaveProperty("jobId");
  });

  it("clearing the filters keeps the sort", () => {
    const q = { ...read(`state=CREATED&host=h&job=${JOB}&q=x&sort=size`), ...NO_FILTERS };
    expect(isFiltered(q)).toBe(false);
    expect(writeVolumesQuery(q)).toBe("?sort=size");
  });
});
