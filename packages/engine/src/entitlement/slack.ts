import { CPU, KIND_COUNT } from "../resources/kinds.ts";
import { EPSILON, subtractAmount } from "../resources/resources.ts";
import { shareRounds } from "./rounds.ts";
import type { Work } from "./work.ts";

/**
 * The revocable (slack) pass for the children of `p` (peloton-semantics.md §1,
 * "Revocable (slack) resources"; Peloton's
 * `setSlackAndNonSlackEntitlementForChildren`). Runs after every entitlement is
 * known. Sets each child's non-slack and slack entitlement.
 */
export function divideSlack(w: Work, p: number): void {
  const { childStart, childList, share } = w.pools;
  const start = childStart[p]!;
  const end = childStart[p + 1]!;
  if (start === end) return;
  const { slackEntitlement: slack, slackFree, unmet } = w;
  for (let k = 0; k < KIND_COUNT; k++) slackFree[k] = slack[p * KIND_COUNT + k]!;
  let totalShare = 0;
  for (let j = start; j < end; j++) {
    const c = childList[j]!;
    const base = c * KIND_COUNT;
    // Only cpu is revocable: its unmet demand is the revocable cpu demand.
    unmet[base + CPU] = w.slackDemand[base + CPU]!;
    totalShare += share[base + CPU]!;
    keepForRevocable(w, c);
    for (let k = 0; k < KIND_COUNT; k++)
      slackFree[k] = subtractAmount(slackFree[k]!, slack[base + k]!);
  }
  // Revocable cpu left over goes to revocable cpu demand in rounds, as phase 2,
  // with the total of all children's cpu shares.
  const free = shareRounds(w, p, CPU, slackFree[CPU]!, totalShare, slack, true, w.slackDemand);
  if (free > EPSILON) shareUnclaimedSlack(w, p, free, totalShare);
}

/**
 * What of child `c`'s entitlement serves revocable tasks: per kind
 * `min(entitlement − non-revocable need, slack requirement)`. The non-slack
 * entitlement is the rest (the whole entitlement when nothing is kept, exactly
 * as Peloton's `Equal(ZeroResource)` test). Then the cpu part becomes the
 * revocable cpu already allocated.
 */
function keepForRevocable(w: Work, c: number): void {
  const base = c * KIND_COUNT;
  const { entitlement: ent, nonSlackEntitlement: nonSlack, slackEntitlement: slack, kept } = w;
  let allZero = true;
  for (let k = 0; k < KIND_COUNT; k++) {
    const i = base + k;
    const v = Math.min(subtractAmount(ent[i]!, w.nonSlackNeed[i]!), w.slackNeed[i]!);
    kept[k] = v;
    if (v !== 0) allZero = false;
  }
  for (let k = 0; k < KIND_COUNT; k++) {
    const i = base + k;
    nonSlack[i] = allZero ? ent[i]! : subtractAmount(ent[i]!, kept[k]!);
  }
  kept[CPU] = w.slackAllocation[base + CPU]!;
  for (let k = 0; k < KIND_COUNT; k++) slack[base + k] = kept[k]!;
  const rec = w.rec;
  if (rec === null || rec.on[c] !== 1) return;
  if (kept[CPU]! > 0) rec.push(c, CPU, { step: "slack-allocated", amount: kept[CPU]! });
  for (let k = 1; k < KIND_COUNT; k++) {
    const i = base + k;
    if (kept[k] === 0 && w.slackNeed[i] === 0) continue;
    rec.push(c, k, {
      step: "slack-kept",
      amount: kept[k]!,
      need: w.nonSlackNeed[i]!,
      requirement: w.slackNeed[i]!,
      nonSlack: nonSlack[i]!,
    });
  }
}

/** What nobody asked for, by cpu share, without a limit cap (Peloton's `distributeUnclaimedSlackResources`). */
function shareUnclaimedSlack(w: Work, p: number, free: number, total: number): void {
  const { childStart, childList, share, paths } = w.pools;
  const { slackEntitlement: slack, rec } = w;
  for (let j = childStart[p]!, end = childStart[p + 1]!; j < end; j++) {
    const c = childList[j]!;
    const i = c * KIND_COUNT + CPU;
    const s = share[i]!;
    if (!(s > 0)) continue;
    const v = (s * free) / total;
    slack[i] = v + slack[i]!;
    if (rec !== null && rec.on[c] === 1) {
      rec.push(c, CPU, {
        step: "slack-unclaimed",
        amount: v,
        of: free,
        at: paths[p]!,
        share: s,
        totalShare: total,
      });
    }
  }
}
