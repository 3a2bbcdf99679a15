import type { PoolDetail } from "@/lib/api-types";
import { formatResource, type Kind } from "@/lib/format";

type Step = PoolDetail["explanation"][Kind]["steps"][number];

const where = (at: string) => (at === "/" ? "the cluster" : at);
const rounds = (n: number) => `${n} more round${n === 1 ? "" : "s"}`;

/**
 * One step of the entitlement calculator in words, with units
 * (peloton-semantics.md §1: reservations, then shares of what is left to unmet
 * demand, then what nobody asked for, capped by the limit). Steps that add
 * nothing (no reservation at all) are left out.
 */
function sentence(s: Step, r: (v: number) => string): string | null {
  switch (s.step) {
    case "capacity":
      return `The cluster has ${r(s.amount)}.`;
    case "wants":
      return s.requirement > s.limit
        ? `Wants ${r(s.amount)}: its tasks ask for ${r(s.requirement)}, capped by its limit.`
        : `Wants ${r(s.amount)}: what its tasks hold and wait for.`;
    case "reserved": {
      if (s.amount === 0 && s.reservation === 0) return null;
      const over =
        s.overParent > 0 ? ` (${r(s.overParent)} of it beyond what its parent had left)` : "";
      if (s.type === "STATIC")
        return `Keeps its whole STATIC reservation of ${r(s.amount)}${over}.`;
      if (s.amount < s.reservation)
        return `Reserved ${r(s.amount)} of its ${r(s.reservation)}: an ELASTIC reservation holds only what the pool wants${over}.`;
      return `Reserved ${r(s.amount)}${over}.`;
    }
    case "share":
      return `Borrowed ${r(s.amount)} of the ${r(s.of)} left in ${where(s.at)}, by its share ${s.share} of ${s.totalShare}.`;
    case "share-carry":
      return `Then ${r(s.amount)} more over ${rounds(s.rounds)}, from what satisfied pools left over.`;
    case "capped-by-demand":
    case "slack-capped-by-demand":
      return `That covers all it wants (${r(s.want)}).`;
    case "unclaimed":
      return `Got ${r(s.amount)} of the ${r(s.of)} nobody asked for in ${where(s.at)}, by its share ${s.share} of ${s.totalShare}.`;
    case "capped-by-limit":
      return `Capped by its limit of ${r(s.limit)}${s.removed > 0 ? ` (${r(s.removed)} not given to anyone)` : ""}.`;
    case "slack-kept":
      return `Keeps ${r(s.amount)} of it for revocable tasks, ${r(s.nonSlack)} for the others.`;
    case "slack-allocated":
      return `Revocable tasks hold ${r(s.amount)} of slack.`;
    case "slack-share":
      return `Borrowed ${r(s.amount)} of the ${r(s.of)} slack left in ${where(s.at)}, by its share ${s.share} of ${s.totalShare}.`;
    case "slack-share-carry":
      return `Then ${r(s.amount)} more slack over ${rounds(s.rounds)}.`;
    case "slack-unclaimed":
      return `Got ${r(s.amount)} of the ${r(s.of)} slack nobody asked for in ${where(s.at)}, by its share ${s.share} of ${s.totalShare}.`;
  }
}

/** Why a pool's entitlement of one kind is what it is: the calculator's steps, in order. */
export function ExplanationSteps({ kind, steps }: { kind: Kind; steps: readonly Step[] }) {
  const r = (v: number) => formatResource(kind, v);
  const lines = steps.map((s) => sentence(s, r)).filter((l): l is string => l !== null);
  if (lines.length === 0) return <p className="text-sm text-muted">Nothing to explain.</p>;
  return (
    <ol className="mt-1 list-decimal space-y-0.5 pl-5 text-sm" data-testid="explanation">
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: steps are a fixed sequence; two may read alike
        <li key={i}>{line}</li>
      ))}
    </ol>
  );
}
