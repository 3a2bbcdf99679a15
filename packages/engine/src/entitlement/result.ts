import { KIND_COUNT, type ResourceKind } from "../resources/kinds.ts";
import type { Resources } from "../resources/resources.ts";
import type { EntitlementResult } from "./calculate.ts";
import type { ExplanationStep } from "./explanation.ts";

export interface PoolEntitlement {
  readonly entitlement: Resources;
  readonly nonSlackEntitlement: Resources;
  readonly slackEntitlement: Resources;
  readonly demand: Resources;
  readonly allocation: Resources;
}

export type PoolExplanation = Readonly<Record<ResourceKind, readonly ExplanationStep[]>>;

/** The data contract's output (peloton-semantics.md, "The data contract"): path → kind → amount. */
export interface EntitlementJson {
  readonly entitlement: Record<string, Resources>;
  readonly nonSlackEntitlement: Record<string, Resources>;
  readonly slackEntitlement: Record<string, Resources>;
}

/** Pool `index`'s four values from a per-kind array (`[index * KIND_COUNT + kind]`). */
export function resourcesAt(values: Float64Array, index: number): Resources {
  const b = index * KIND_COUNT;
  return { cpu: values[b]!, gpu: values[b + 1]!, memory: values[b + 2]!, disk: values[b + 3]! };
}

export function entitlementOf(
  result: EntitlementResult,
  path: string,
): PoolEntitlement | undefined {
  const i = result.pools.indexOf.get(path);
  if (i === undefined) return undefined;
  return {
    entitlement: resourcesAt(result.entitlement, i),
    nonSlackEntitlement: resourcesAt(result.nonSlackEntitlement, i),
    slackEntitlement: resourcesAt(result.slackEntitlement, i),
    demand: resourcesAt(result.usage.demand, i),
    allocation: resourcesAt(result.usage.allocation, i),
  };
}

/** The recorded steps of a pool, or undefined when it was not asked to be explained. */
export function explanationOf(
  result: EntitlementResult,
  path: string,
): PoolExplanation | undefined {
  const rec = result.explanations;
  const i = result.pools.indexOf.get(path);
  if (!rec || i === undefined || rec.on[i] !== 1) return undefined;
  const steps = (k: number) => rec.steps[i * KIND_COUNT + k] ?? [];
  return { cpu: steps(0), gpu: steps(1), memory: steps(2), disk: steps(3) };
}

/**
 * The contract's JSON: `entitlement` includes the root; the non-slack and slack
 * entitlements list the pools only, as in the document's example.
 */
export function toEntitlementJson(result: EntitlementResult): EntitlementJson {
  const entitlement: Record<string, Resources> = {};
  const nonSlackEntitlement: Record<string, Resources> = {};
  const slackEntitlement: Record<string, Resources> = {};
  const { paths } = result.pools;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    entitlement[path] = resourcesAt(result.entitlement, i);
    if (i === 0) continue;
    nonSlackEntitlement[path] = resourcesAt(result.nonSlackEntitlement, i);
    slackEntitlement[path] = resourcesAt(result.slackEntitlement, i);
  }
  return { entitlement, nonSlackEntitlement, slackEntitlement };
}
