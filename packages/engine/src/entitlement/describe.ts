import { formatAmount as n } from "../resources/format.ts";
import { KIND_UNITS, type ResourceKind } from "../resources/kinds.ts";
import type { ExplanationStep } from "./explanation.ts";

function clause(s: ExplanationStep, unit: string): string | null {
  switch (s.step) {
    case "capacity":
      return `the cluster's ${n(s.amount)} ${unit}`;
    case "wants":
      return s.requirement > s.limit
        ? `wants ${n(s.amount)} ${unit} (asks ${n(s.requirement)}, capped by limit ${n(s.limit)})`
        : `wants ${n(s.amount)} ${unit}`;
    case "reserved": {
      if (s.amount === 0 && s.reservation === 0) return null;
      const over =
        s.overParent > 0 ? `, ${n(s.overParent)} of it beyond what the parent had left` : "";
      if (s.type === "STATIC") return `reserved ${n(s.amount)} ${unit} (STATIC)${over}`;
      if (s.amount < s.reservation) {
        return `reserved ${n(s.amount)} ${unit} of its ${n(s.reservation)} (ELASTIC: only what it wants)${over}`;
      }
      return `reserved ${n(s.amount)} ${unit}${over}`;
    }
    case "share":
    case "slack-share": {
      const what = s.step === "share" ? "left" : `slack ${unit} left`;
      return `borrowed ${n(s.amount)} of the ${n(s.of)} ${what} at ${s.at} by share ${n(s.share)} of ${n(s.totalShare)}`;
    }
    case "share-carry":
    case "slack-share-carry":
      return `then ${n(s.amount)} more in ${s.rounds} later round${s.rounds === 1 ? "" : "s"} (what satisfied pools' shares left over)`;
    case "capped-by-demand":
    case "slack-capped-by-demand":
      return `capped by demand ${n(s.want)}`;
    case "unclaimed":
    case "slack-unclaimed": {
      const what = s.step === "unclaimed" ? "nobody asked for" : `slack ${unit} nobody asked for`;
      return `got ${n(s.amount)} of the ${n(s.of)} ${what} at ${s.at} by share ${n(s.share)} of ${n(s.totalShare)}`;
    }
    case "capped-by-limit":
      return `capped by limit ${n(s.limit)}`;
    case "slack-kept":
      return `kept ${n(s.amount)} for revocable tasks (non-slack ${n(s.nonSlack)})`;
    case "slack-allocated":
      return `revocable: ${n(s.amount)} slack ${unit} allocated`;
  }
}

/**
 * One sentence from a pool's steps for one kind, e.g. "reserved 40 cpu;
 * borrowed 12 of the 30 left at /infra by share 2 of 5; capped by limit 50".
 * The console renders the steps itself when it wants more.
 */
export function describeExplanation(steps: readonly ExplanationStep[], kind: ResourceKind): string {
  const unit = KIND_UNITS[kind];
  const parts: string[] = [];
  for (const s of steps) {
    const c = clause(s, unit);
    if (c) parts.push(c);
  }
  return parts.length > 0 ? parts.join("; ") : `nothing to explain for ${unit}`;
}
