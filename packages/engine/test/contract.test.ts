/** The data contract's input parsing (peloton-semantics.md, "The data contract"). */
import { describe, expect, it } from "vitest";
import { parseEntitlementContract } from "../src/index.ts";

const base = { capacity: { cpu: 10 } };

describe("contract defaults", () => {
  const parsed = parseEntitlementContract({
    ...base,
    pools: [
      { path: "/a", resources: [{ kind: "cpu", reservation: 2, limit: 5 }] },
      { path: "/b", slackLimit: {} },
      { path: "/c", slackLimit: { maxPercent: 50 }, demand: { cpu: 1 } },
    ],
  });
  const pools = parsed.ok ? parsed.input.pools : [];

  it("a listed kind without share has share 0; unlisted kinds get 0 / 0 / share 1", () => {
    expect(pools[0]?.resources.cpu).toEqual({
      reservation: 2,
      limit: 5,
      share: 0,
      type: "ELASTIC",
    });
    expect(pools[0]?.resources.memory).toEqual({
      reservation: 0,
      limit: 0,
      share: 1,
      type: "ELASTIC",
    });
  });

  it("slackLimit: absent 20%, present without maxPercent 0 (protobuf's zero value)", () => {
    expect(pools[0]?.slackLimitMaxPercent).toBe(20);
    expect(pools[1]?.slackLimitMaxPercent).toBe(0);
    expect(pools[2]?.slackLimitMaxPercent).toBe(50);
  });

  it("usage passes through; missing fields are 0 later", () => {
    expect(pools[2]?.demand).toEqual({ cpu: 1 });
    expect(pools[0]?.demand).toBeUndefined();
  });
});

describe("contract errors name the problem in one line", () => {
  it.each([
    {
      name: "unknown kind in resources",
      input: { ...base, pools: [{ path: "/a", resources: [{ kind: "cpus" }] }] },
      says: 'pools[0] (/a).resources[0].kind: unknown kind "cpus" (expected cpu, gpu, memory, disk)',
    },
    {
      name: "unknown kind in a demand",
      input: { ...base, pools: [{ path: "/a", demand: { cpus: 1 } }] },
      says: 'pools[0] (/a).demand: unknown kind "cpus" (expected cpu, gpu, memory, disk)',
    },
    {
      name: "unknown kind in the capacity",
      input: { capacity: { cores: 1 }, pools: [] },
      says: 'capacity: unknown kind "cores" (expected cpu, gpu, memory, disk)',
    },
    {
      name: "negative number",
      input: { ...base, pools: [{ path: "/a", resources: [{ kind: "cpu", limit: -3 }] }] },
      says: "pools[0] (/a).resources[0].limit: negative number -3",
    },
    {
      name: "a string for a number",
      input: { capacity: { cpu: "10" }, pools: [] },
      says: "capacity.cpu: must be a number",
    },
    {
      name: "a kind listed twice",
      input: { ...base, pools: [{ path: "/a", resources: [{ kind: "cpu" }, { kind: "cpu" }] }] },
      says: "pools[0] (/a).resources[1].kind: kind cpu listed twice",
    },
    {
      name: "an unknown field",
      input: { ...base, pools: [{ path: "/a", reservaton: 3 }] },
      says: 'pools[0] (/a): unknown field "reservaton"',
    },
    { name: "no capacity", input: { pools: [] }, says: /^capacity: / },
    { name: "not an object", input: [], says: /^input: / },
  ])("$name", ({ input, says }) => {
    const parsed = parseEntitlementContract(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      if (typeof says === "string") expect(parsed.message).toBe(says);
      else expect(parsed.message).toMatch(says);
      expect(parsed.message).not.toContain("\n");
    }
  });
});
