import { KIND_COUNT } from "../resources/kinds.ts";
import { EPSILON } from "../resources/resources.ts";
import type { Work } from "./work.ts";

/**
 * Phase 2 (peloton-semantics.md §1, "share out the free resources to unmet
 * demand"), shared by the revocable pass. Reads `w.unmet` for the children of
 * `p`, adds what each gets to `target`, returns what is still free.
 *
 * Rounds repeat while `free > ε` and some child's unmet demand is above ε.
 * Each round offers `share × round / totalShare`, where `round` is what was
 * free when the round began and `totalShare` stays as phase 1 fixed it, shares
 * of satisfied children included: a round hands out less than `round` and the
 * rest carries into the next. Peloton does this; so do we.
 *
 * Only children whose unmet demand is ≥ ε are visited (Peloton skips the
 * others), which keeps a long tail of rounds cheap when one child of many is
 * still hungry. Two guards Peloton lacks: a zero `totalShare` offers 0 (Go
 * divides 0 by 0 and hands the first such child everything through NaN
 * comparisons), and a round that hands out nothing ends the loop (Go would
 * spin forever when only zero-share children still want more).
 */
export function shareRounds(
  w: Work,
  p: number,
  k: number,
  free: number,
  totalShare: number,
  target: Float64Array,
  slack: boolean,
  wantOf: Float64Array,
): number {
  const { childStart, childList, share, paths } = w.pools;
  const unmet = w.unmet;
  const active = w.active;
  const rec = w.rec;
  let n = 0;
  let exists = false;
  for (let j = childStart[p]!, end = childStart[p + 1]!; j < end; j++) {
    const c = childList[j]!;
    const u = unmet[c * KIND_COUNT + k]!;
    if (u >= EPSILON) active[n++] = c;
    if (u > EPSILON) exists = true;
  }
  let round = 0;
  while (free > EPSILON && exists) {
    round++;
    const size = free;
    let handed = 0;
    let kept = 0;
    exists = false;
    for (let a = 0; a < n; a++) {
      if (free < EPSILON) break;
      const c = active[a]!;
      const i = c * KIND_COUNT + k;
      const u = unmet[i]!;
      let v = totalShare > 0 ? (share[i]! * size) / totalShare : 0;
      let left: number;
      if (v > u) {
        v = u;
        left = 0;
      } else {
        left = u - v;
      }
      unmet[i] = left;
      if (free > v) {
        free -= v;
      } else {
        v = free;
        free = 0;
      }
      target[i] = v + target[i]!;
      handed += v;
      if (rec !== null && rec.on[c] === 1) {
        rec.round(c, k, slack, round, v, size, paths[p]!, share[i]!, totalShare);
        if (left === 0) {
          const step = slack ? "slack-capped-by-demand" : "capped-by-demand";
          rec.push(c, k, { step, round, want: wantOf[i]! });
        }
      }
      if (left >= EPSILON) active[kept++] = c;
      if (left > EPSILON) exists = true;
    }
    n = kept;
    if (handed === 0) break;
  }
  return free;
}
