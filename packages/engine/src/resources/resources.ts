import { RESOURCE_KINDS, type ResourceKind } from "./kinds.ts";

/** An amount of each kind: cpu in cores, gpu in devices, memory and disk in MB. */
export type Resources = Record<ResourceKind, number>;

/**
 * Peloton's `util.ResourceEpsilon`. Results of a subtraction below it are 0, and
 * comparisons treat differences below it as equal (peloton-semantics.md §1).
 */
export const EPSILON = 0.0009;

export function zeroResources(): Resources {
  return { cpu: 0, gpu: 0, memory: 0, disk: 0 };
}

/** A full record from a partial one; missing kinds are 0. */
export function toResources(partial: Partial<Resources> | undefined): Resources {
  return {
    cpu: partial?.cpu ?? 0,
    gpu: partial?.gpu ?? 0,
    memory: partial?.memory ?? 0,
    disk: partial?.disk ?? 0,
  };
}

export function addResources(a: Resources, b: Resources): Resources {
  return {
    cpu: a.cpu + b.cpu,
    gpu: a.gpu + b.gpu,
    memory: a.memory + b.memory,
    disk: a.disk + b.disk,
  };
}

/**
 * `a − b` the way Peloton's `scalar.Resources.Subtract` does it: 0 when `a < b`,
 * and any result below ε is 0 (peloton-semantics.md §1, "Subtracting resources
 * never goes below zero").
 */
export function subtractAmount(a: number, b: number): number {
  if (a < b) return 0;
  const d = a - b;
  return d < EPSILON ? 0 : d;
}

export function subtractResources(a: Resources, b: Resources): Resources {
  return {
    cpu: subtractAmount(a.cpu, b.cpu),
    gpu: subtractAmount(a.gpu, b.gpu),
    memory: subtractAmount(a.memory, b.memory),
    disk: subtractAmount(a.disk, b.disk),
  };
}

export function minResources(a: Resources, b: Resources): Resources {
  return {
    cpu: Math.min(a.cpu, b.cpu),
    gpu: Math.min(a.gpu, b.gpu),
    memory: Math.min(a.memory, b.memory),
    disk: Math.min(a.disk, b.disk),
  };
}

/** `a ≤ b` with ε slack, per kind (Peloton's `lessThanOrEqual`). */
export function amountLessOrEqual(a: number, b: number): boolean {
  const d = a - b;
  return Math.abs(d) < EPSILON || d < 0;
}

/** Every kind of `a` is ≤ the same kind of `b`, with ε slack. */
export function resourcesLessOrEqual(a: Resources, b: Resources): boolean {
  for (const k of RESOURCE_KINDS) if (!amountLessOrEqual(a[k], b[k])) return false;
  return true;
}

/** True when every kind is within ε of zero (Peloton's "≤ ZeroResource"). */
export function isZeroResources(a: Resources): boolean {
  return resourcesLessOrEqual(a, { cpu: 0, gpu: 0, memory: 0, disk: 0 });
}

/** Exact equality, as Peloton's `Resources.Equal` (no ε). */
export function resourcesEqual(a: Resources, b: Resources): boolean {
  return a.cpu === b.cpu && a.gpu === b.gpu && a.memory === b.memory && a.disk === b.disk;
}

/** The kinds in which `a` exceeds `b` by more than ε. */
export function kindsExceeding(a: Resources, b: Resources): ResourceKind[] {
  return RESOURCE_KINDS.filter((k) => !amountLessOrEqual(a[k], b[k]));
}
