/**
 * Each scorer alone, on its fixed 0–100 scale; the expected numbers carry
 * their arithmetic.
 */
import { describe, expect, it } from "vitest";
import { STRATEGY_WEIGHTS } from "../src/index.ts";
import { packScore, usedFractionAfter } from "../src/placement/scorers/pack.ts";
import { spreadScore } from "../src/placement/scorers/spread.ts";
import { stickyScore } from "../src/placement/scorers/sticky.ts";
import { combineScores, weightsFor } from "../src/placement/scorers/strategy.ts";

describe("pack: the fuller the host after placement, the higher", () => {
  it.each([
    { name: "empty host, task takes half", ask: 4, free: 8, total: 8, want: 0.5 },
    { name: "half-used host, task takes the rest", ask: 4, free: 4, total: 8, want: 1 },
    {
      name: "no such kind on the host: no opinion (zero-capacity guard)",
      ask: 0,
      free: 0,
      total: 0,
      want: null,
    },
    { name: "over-full input is clamped to 1", ask: 4, free: 0, total: 8, want: 1 },
  ])("usedFractionAfter: $name", ({ ask, free, total, want }) =>
    expect(usedFractionAfter(ask, free, total)).toBe(want),
  );

  it.each([
    {
      name: "the mean over the kinds the host has",
      // cpu (8−4+2)/8 = 0.75, gpu none, memory (1000−1000+500)/1000 = 0.5, disk (100−100+0)/100 = 0
      ask: [2, 0, 500, 0],
      free: [4, 0, 1000, 100],
      total: [8, 0, 1000, 100],
      want: (100 * (0.75 + 0.5 + 0)) / 3,
    },
    {
      name: "a tighter host scores higher",
      // cpu (8−1+2)/8 = 1.125 → 1, memory 0.5, disk 0 → 50
      ask: [2, 0, 500, 0],
      free: [1, 0, 1000, 100],
      total: [8, 0, 1000, 100],
      want: 50,
    },
    {
      name: "a host with nothing scores 0",
      ask: [1, 0, 0, 0],
      free: [0, 0, 0, 0],
      total: [0, 0, 0, 0],
      want: 0,
    },
  ])("packScore: $name", ({ ask, free, total, want }) =>
    expect(packScore(ask, free, total)).toBeCloseTo(want, 10),
  );
});

describe("spread: fewest of the job's tasks on the host and in its zone", () => {
  it.each([
    { name: "no task of the job anywhere", onHost: 0, inDomain: 0, fewest: 0, want: 100 },
    // host 100/(1+1) = 50; domain 100×(1+0)/(1+1) = 50 → 50
    { name: "one on this host, in the busiest zone", onHost: 1, inDomain: 1, fewest: 0, want: 50 },
    // host 100; domain 100×1/(1+2) = 33.3 → 66.7
    {
      name: "none here, but two in this zone while another has none",
      onHost: 0,
      inDomain: 2,
      fewest: 0,
      want: (100 + 100 / 3) / 2,
    },
    // host 100; domain 100×(1+2)/(1+2) = 100 → 100
    { name: "zones balanced: the zone part is 100", onHost: 0, inDomain: 2, fewest: 2, want: 100 },
    {
      name: "host without the attribute: host part only",
      onHost: 3,
      inDomain: null,
      fewest: 0,
      want: 25,
    },
  ])("$name → $want", ({ onHost, inDomain, fewest, want }) =>
    expect(spreadScore(onHost, inDomain, fewest)).toBeCloseTo(want, 10),
  );
});

describe("sticky: the previous host scores 100", () => {
  it.each([
    { host: "h1", previous: "h1", want: 100 },
    { host: "h2", previous: "h1", want: 0 },
    { host: "h1", previous: undefined, want: 0 },
  ])("$host after $previous → $want", ({ host, previous, want }) =>
    expect(stickyScore(host, previous)).toBe(want),
  );
});

describe("the strategy picks the weights", () => {
  it("PACK_HOST packs, SPREAD_JOB spreads; sticky counts only with a previous host", () => {
    expect(STRATEGY_WEIGHTS.PACK_HOST).toEqual({ pack: 1, spread: 0, sticky: 1 });
    expect(STRATEGY_WEIGHTS.SPREAD_JOB).toEqual({ pack: 0, spread: 1, sticky: 1 });
    expect(weightsFor("PACK_HOST", false)).toEqual({ pack: 1, spread: 0, sticky: 0 });
  });
  it.each([
    { name: "pack alone", w: { pack: 1, spread: 0, sticky: 0 }, scores: [80, 10, 100], want: 80 },
    {
      name: "pack and sticky: the mean",
      w: { pack: 1, spread: 0, sticky: 1 },
      scores: [40, 0, 100],
      want: 70,
    },
    { name: "no weights: 0", w: { pack: 0, spread: 0, sticky: 0 }, scores: [40, 0, 100], want: 0 },
  ])("combineScores: $name", ({ w, scores, want }) =>
    expect(combineScores(w, scores[0]!, scores[1]!, scores[2]!)).toBe(want),
  );
});
