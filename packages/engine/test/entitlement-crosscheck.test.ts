/**
 * The flat-array calculator against a literal object-per-pool port of
 * Peloton's Go code (test/support/reference-calculator.ts) on random trees:
 * every number must be identical, bit for bit. Plus invariants any correct
 * division keeps.
 */

import { randomPools } from "@peloton/test-support/engine/random-pools.ts";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../bench/harness.ts";
import { EPSILON, entitlementOf, RESOURCE_KINDS } from "../src/index.ts";
import { entitle } from "./support/builders.ts";
import { referenceEntitlement } from "./support/reference-calculator.ts";

const seeds = Array.from({ length: 12 }, (_, i) => i + 1);

describe("cross-check with a literal port of Peloton's calculator", () => {
  it.each(seeds)("random tree, seed %i: identical numbers", (seed) => {
    const input = randomPools(seededRandom(seed), 300, { edgeCases: seed % 2 === 0 });
    const { result } = entitle(input);
    const reference = referenceEntitlement(input);
    for (const [path, want] of reference) {
      const got = entitlementOf(result, path)!;
      expect(got.entitlement, `${path} entitlement`).toEqual(want.ent);
      if (path === "/") continue;
      expect(got.nonSlackEntitlement, `${path} non-slack`).toEqual(want.nonSlack);
      expect(got.slackEntitlement, `${path} slack`).toEqual(want.slack);
    }
  });
});

describe("invariants on random trees", () => {
  it.each(seeds)(
    "seed %i: children share at most the parent's entitlement plus their reservations",
    (seed) => {
      const input = randomPools(seededRandom(seed * 7919), 500, { edgeCases: true });
      const { result } = entitle(input);
      const { pools, entitlement: ent } = result;
      for (let p = 0; p < pools.size; p++) {
        for (let k = 0; k < 4; k++) {
          let given = 0;
          let reserved = 0;
          for (let j = pools.childStart[p]!; j < pools.childStart[p + 1]!; j++) {
            const c = pools.childList[j]!;
            given += ent[c * 4 + k]!;
            reserved += pools.reservation[c * 4 + k]!;
            // Nothing above the limit, except a STATIC reservation the parent could not hold.
            expect(ent[c * 4 + k]!).toBeLessThanOrEqual(
              Math.max(pools.limit[c * 4 + k]!, pools.reservation[c * 4 + k]!),
            );
            expect(ent[c * 4 + k]!).toBeGreaterThanOrEqual(0);
          }
          // Only reservations can push the children past the parent (absorbed in phase 1).
          expect(given).toBeLessThanOrEqual(
            Math.max(ent[p * 4 + k]!, reserved) + EPSILON * 4 + 1e-6 * given,
          );
        }
      }
    },
  );

  it("non-slack plus kept slack is the entitlement for memory, disk and gpu", () => {
    const input = randomPools(seededRandom(42), 400);
    const { result } = entitle(input);
    for (const path of result.pools.paths.slice(1)) {
      const e = entitlementOf(result, path)!;
      for (const k of RESOURCE_KINDS.slice(1)) {
        expect(e.nonSlackEntitlement[k] + e.slackEntitlement[k]).toBeCloseTo(e.entitlement[k], 2);
      }
    }
  });
});
