/**
 * Preemption input the engine refuses, each problem named with its field and
 * value; a refused cycle decides nothing. Tasks are checked where they are
 * gathered (`candidates.ts`): a cycle reads only the tasks of the pools it
 * looks at, out of 100,000.
 */
import { RESOURCE_KINDS } from "../resources/kinds.ts";
import type { Resources } from "../resources/resources.ts";
import type { PreemptionInputError } from "./decision.ts";
import type { PreemptionInput } from "./input.ts";

const valid = (v: number) => v >= 0 && v < Infinity;

export function amountErrors(
  subject: "pool" | "task" | "gang",
  id: string,
  field: string,
  r: Resources,
  out: PreemptionInputError[],
): void {
  // The common case in one expression: a cycle checks 100,000 tasks.
  if (valid(r.cpu) && valid(r.gpu) && valid(r.memory) && valid(r.disk)) return;
  for (const k of RESOURCE_KINDS) {
    const v = r[k];
    if (!valid(v)) {
      out.push({ code: "INVALID_AMOUNT", subject, id, field: `${field}.${k}`, value: v });
    }
  }
}

const POOL_FIELDS = [
  "nonSlackEntitlement",
  "slackEntitlement",
  "allocation",
  "slackAllocation",
  "demand",
  "slackDemand",
] as const;

export function validatePreemptionInput(input: PreemptionInput): PreemptionInputError[] {
  const errors: PreemptionInputError[] = [];
  const n = input.sustainedCount;
  if (!(Number.isInteger(n) && n >= 1)) errors.push({ code: "INVALID_SUSTAINED_COUNT", value: n });
  const paths = new Set<string>();
  for (const p of input.pools) {
    if (paths.has(p.path)) errors.push({ code: "DUPLICATE_POOL", pool: p.path });
    paths.add(p.path);
    for (const f of POOL_FIELDS) amountErrors("pool", p.path, f, p[f], errors);
    for (const f of ["unplaced", "slackUnplaced"] as const) {
      const v = p[f];
      if (v !== undefined) amountErrors("pool", p.path, f, v, errors);
    }
  }
  for (const g of input.waiting ?? []) {
    if (!paths.has(g.pool)) {
      errors.push({ code: "UNKNOWN_POOL", subject: "gang", id: g.gangId, pool: g.pool });
    }
    amountErrors("gang", g.gangId, "resources", g.resources, errors);
  }
  return errors;
}
