import { KIND_COUNT } from "../resources/kinds.ts";
import { EPSILON } from "../resources/resources.ts";
import { shareRounds } from "./rounds.ts";
import type { Work } from "./work.ts";

/**
 * Divides pool `p`'s entitlement among its children, kind by kind, in the three
 * phases of peloton-semantics.md §1 (Peloton's `setEntitlementForChildren`).
 * Writes each child's entitlement into `w.entitlement`.
 */
export function divideEntitlement(w: Work, p: number): void {
  const { childStart } = w.pools;
  if (childStart[p] === childStart[p + 1]) return;
  for (let k = 0; k < KIND_COUNT; k++) {
    let free = reserve(w, p, k);
    free = shareRounds(w, p, k, free, w.totalShare[k]!, w.entitlement, false, w.want);
    if (free > EPSILON) shareUnclaimed(w, p, k, free);
  }
}

/**
 * Phase 1 — reservations. Each child gets its reservation (STATIC) or the part
 * of it it wants (ELASTIC); a child wanting more joins the share pool with its
 * unmet demand. `free` loses each assignment in turn, clamped at 0 and below ε
 * to 0, so reservations beyond the parent's are absorbed silently. Returns the
 * free amount and leaves the share pool's total in `w.totalShare[k]`.
 */
function reserve(w: Work, p: number, k: number): number {
  const { childStart, childList, reservation, share, isStatic } = w.pools;
  const { want, unmet, entitlement: ent, rec } = w;
  let free = ent[p * KIND_COUNT + k]!;
  let totalShare = 0;
  for (let j = childStart[p]!, end = childStart[p + 1]!; j < end; j++) {
    const c = childList[j]!;
    const i = c * KIND_COUNT + k;
    const wi = want[i]!;
    const r = reservation[i]!;
    const assigned = isStatic[i] === 1 ? r : Math.min(wi, r);
    if (wi > r) {
      totalShare += share[i]!;
      unmet[i] = wi - r;
    } else {
      unmet[i] = 0;
    }
    if (rec !== null && rec.on[c] === 1) {
      const requirement = w.nonSlackNeed[i]! + w.slackNeed[i]!;
      rec.push(c, k, { step: "wants", amount: wi, requirement, limit: w.pools.limit[i]! });
      const type = isStatic[i] === 1 ? "STATIC" : "ELASTIC";
      const overParent = assigned > free ? assigned - free : 0;
      rec.push(c, k, { step: "reserved", amount: assigned, reservation: r, type, overParent });
    }
    if (free < assigned) {
      free = 0;
    } else {
      free -= assigned;
      if (free < EPSILON) free = 0;
    }
    ent[i] = assigned;
  }
  w.totalShare[k] = totalShare;
  return free;
}

/**
 * Phase 3 — share out what nobody asked for: every child with a share gets
 * `share × free / S` (S: all children's shares, Peloton's `getChildShare`),
 * then is capped at its limit; what the cap removes is not redistributed.
 * Peloton also caps zero-share children (a no-op unless a STATIC reservation
 * exceeds its limit, which validation forbids) and divides by S = 0 into NaN;
 * the document's "each child with a share > 0" avoids both.
 */
function shareUnclaimed(w: Work, p: number, k: number, free: number): void {
  const { childStart, childList, share, limit, paths } = w.pools;
  const { entitlement: ent, rec } = w;
  const start = childStart[p]!;
  const end = childStart[p + 1]!;
  let total = 0;
  for (let j = start; j < end; j++) total += share[childList[j]! * KIND_COUNT + k]!;
  for (let j = start; j < end; j++) {
    const c = childList[j]!;
    const i = c * KIND_COUNT + k;
    const s = share[i]!;
    if (!(s > 0)) continue;
    const v = (s * free) / total;
    const sum = v + ent[i]!;
    const cap = limit[i]!;
    ent[i] = Math.min(sum, cap);
    if (rec !== null && rec.on[c] === 1) {
      rec.push(c, k, {
        step: "unclaimed",
        amount: v,
        of: free,
        at: paths[p]!,
        share: s,
        totalShare: total,
      });
      if (sum > cap) rec.push(c, k, { step: "capped-by-limit", limit: cap, removed: sum - cap });
    }
  }
}
