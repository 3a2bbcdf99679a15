import { describe, expect, it } from "vitest";
import { poolConcerns } from "../src/schemas/attention.ts";
import { formatAuditValue } from "../src/schemas/audit.ts";
import { mergeHitGroups, parseSearch, uuidPrefixRange } from "../src/schemas/search.ts";

const ID = "1a2b3c4d-5e6f-4a1b-8c2d-0123456789ab";

describe("parseSearch: what the palette's text asks for", () => {
  it.each([
    { q: "owner:alice", want: { kind: "owner", owner: "alice" } },
    { q: "OWNER: bob ", want: { kind: "owner", owner: "bob" } },
    { q: "label:team=ml", want: { kind: "label", key: "team", value: "ml" } },
    { q: "tier = gold", want: { kind: "label", key: "tier", value: "gold" } },
    {
      q: `${ID}-3-2`,
      want: { kind: "clusterTask", mesosTaskId: `${ID}-3-2`, jobId: ID, instance: 3 },
    },
    { q: "nightly/4", want: { kind: "instance", job: "nightly", instance: 4 } },
    { q: `${ID}/0`, want: { kind: "instance", job: ID, instance: 0 } },
    { q: "/infra/batch", want: { kind: "text", text: "/infra/batch", idRange: null } },
    { q: "etl", want: { kind: "text", text: "etl", idRange: null } },
  ])("$q", ({ q, want }) => {
    expect(parseSearch(q)).toEqual(want);
  });

  it("reads hex of 4 or more digits as a job id prefix too", () => {
    expect(parseSearch("1a2b3c4d")).toEqual({
      kind: "text",
      text: "1a2b3c4d",
      idRange: {
        low: "1a2b3c4d-0000-0000-0000-000000000000",
        high: "1a2b3c4d-ffff-ffff-ffff-ffffffffffff",
      },
    });
  });
});

describe("uuidPrefixRange", () => {
  it.each([
    { text: "1a2", range: null, why: "too short" },
    {
      text: "beef",
      range: ["beef0000-0000-0000-0000-000000000000", "beefffff-ffff-ffff-ffff-ffffffffffff"],
    },
    {
      text: "1A2B3C4D-5E",
      range: ["1a2b3c4d-5e00-0000-0000-000000000000", "1a2b3c4d-5eff-ffff-ffff-ffffffffffff"],
    },
    {
      text: "1a2b3c4d5e",
      range: ["1a2b3c4d-5e00-0000-0000-000000000000", "1a2b3c4d-5eff-ffff-ffff-ffffffffffff"],
    },
    { text: ID, range: [ID, ID] },
    { text: "1a2b-3c4d", range: null, why: "a dash where a UUID has none" },
    { text: "nightly", range: null, why: "not hex" },
  ])("$text", ({ text, range }) => {
    expect(uuidPrefixRange(text)).toEqual(range ? { low: range[0], high: range[1] } : null);
  });
});

describe("mergeHitGroups: every kind that matched is shown within the limit", () => {
  it.each([
    { groups: [[1, 2, 3, 4], [10], [20, 21]], limit: 4, want: [1, 2, 10, 20] },
    { groups: [[1, 2, 3, 4], [], [20]], limit: 3, want: [1, 2, 20] },
    { groups: [[1, 2], [10]], limit: 10, want: [1, 2, 10] },
    { groups: [[], []], limit: 5, want: [] },
  ])("$groups within $limit", ({ groups, limit, want }) => {
    expect(mergeHitGroups(groups, limit)).toEqual(want);
  });
});

describe("poolConcerns: why a pool needs a look", () => {
  const none = { entitlement: 0, allocation: 0, demand: 0 };
  const kinds = (cpu: typeof none) => ({ cpu, memory: none, disk: none, gpu: none });
  it.each([
    {
      name: "within its entitlement",
      cpu: { entitlement: 10, allocation: 6, demand: 2 },
      leaf: true,
      want: [],
    },
    {
      name: "holds more than entitled",
      cpu: { entitlement: 10, allocation: 12, demand: 0 },
      leaf: false,
      want: ["OVER_ENTITLEMENT"],
    },
    // 8 held + 4 waiting > 10 entitled: the waiting work cannot be admitted.
    {
      name: "work waits that does not fit",
      cpu: { entitlement: 10, allocation: 8, demand: 4 },
      leaf: true,
      want: ["BLOCKED"],
    },
    {
      name: "a parent is never blocked (jobs sit in leaves)",
      cpu: { entitlement: 10, allocation: 8, demand: 4 },
      leaf: false,
      want: [],
    },
    {
      name: "float noise is not an excess",
      cpu: { entitlement: 0.3, allocation: 0.1 + 0.2, demand: 0 },
      leaf: true,
      want: [],
    },
  ])("$name", ({ cpu, leaf, want }) => {
    expect(poolConcerns(kinds(cpu), leaf).map((c) => c.code)).toEqual(want);
  });
});

describe("formatAuditValue: audited values in words", () => {
  it.each([
    {
      value: [
        { from: 0, to: 3 },
        { from: 7, to: 7 },
      ],
      want: "0–3, 7",
    },
    { value: null, want: "—" },
    { value: ["a", "b"], want: "a, b" },
    { value: [], want: "(none)" },
    { value: { x: 1 }, want: '{"x":1}' },
    { value: 12, want: "12" },
  ])("$want", ({ value, want }) => {
    expect(formatAuditValue(value)).toBe(want);
  });
});
