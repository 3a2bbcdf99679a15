/**
 * Fixture builders (STYLE.md §8): `pool('/a').reserve({ cpu: 10 }).share(2)`.
 * Defaults: reservation 0, limit unbounded, share 1, ELASTIC — so a case only
 * states what it is about.
 */
import {
  buildPoolTree,
  calculateEntitlement,
  type EntitlementInput,
  type EntitlementPoolInput,
  type EntitlementResult,
  entitlementOf,
  lastSegment,
  type PoolEntitlement,
  type PoolRecord,
  type PoolResources,
  type PoolTree,
  parentPath,
  RESOURCE_KINDS,
  type ResourceConfig,
  type ResourceKind,
  type Resources,
} from "../../src/index.ts";

type PerKind = Partial<Resources> | number;

function perKind(v: PerKind): Partial<Resources> {
  return typeof v === "number" ? { cpu: v, gpu: v, memory: v, disk: v } : v;
}

export class PoolBuilder {
  private readonly cfg: Record<
    ResourceKind,
    { -readonly [K in keyof ResourceConfig]: ResourceConfig[K] }
  >;
  private usage: Pick<
    EntitlementPoolInput,
    "demand" | "allocation" | "slackDemand" | "slackAllocation"
  > = {};
  private slackPercent: number | undefined;

  constructor(readonly path: string) {
    const d = (): ResourceConfig => ({
      reservation: 0,
      limit: Infinity,
      share: 1,
      type: "ELASTIC",
    });
    this.cfg = { cpu: d(), gpu: d(), memory: d(), disk: d() };
  }

  private set(field: "reservation" | "limit" | "share", v: PerKind): this {
    for (const [k, x] of Object.entries(perKind(v)) as [ResourceKind, number][])
      this.cfg[k][field] = x;
    return this;
  }

  reserve(v: PerKind): this {
    return this.set("reservation", v);
  }
  limit(v: PerKind): this {
    return this.set("limit", v);
  }
  share(v: PerKind): this {
    return this.set("share", v);
  }
  /** STATIC reservations for the given kinds (all when none given). */
  static(...kinds: ResourceKind[]): this {
    for (const k of kinds.length > 0 ? kinds : RESOURCE_KINDS) this.cfg[k].type = "STATIC";
    return this;
  }
  demand(r: Partial<Resources>): this {
    this.usage = { ...this.usage, demand: r };
    return this;
  }
  alloc(r: Partial<Resources>): this {
    this.usage = { ...this.usage, allocation: r };
    return this;
  }
  slackDemand(r: Partial<Resources>): this {
    this.usage = { ...this.usage, slackDemand: r };
    return this;
  }
  slackAlloc(r: Partial<Resources>): this {
    this.usage = { ...this.usage, slackAllocation: r };
    return this;
  }
  slackLimit(maxPercent: number): this {
    this.slackPercent = maxPercent;
    return this;
  }
  /** Peloton's test configuration: cpu 10/1000, memory 100/1000, disk 1000/1000, gpu 1/4, share 1. */
  peloton(): this {
    return this.reserve({ cpu: 10, memory: 100, disk: 1000, gpu: 1 })
      .limit({ cpu: 1000, memory: 1000, disk: 1000, gpu: 4 })
      .share(1);
  }

  resources(): PoolResources {
    return {
      cpu: { ...this.cfg.cpu },
      gpu: { ...this.cfg.gpu },
      memory: { ...this.cfg.memory },
      disk: { ...this.cfg.disk },
    };
  }

  build(): EntitlementPoolInput {
    return {
      path: this.path,
      resources: this.resources(),
      ...(this.slackPercent === undefined ? {} : { slackLimitMaxPercent: this.slackPercent }),
      ...this.usage,
    };
  }

  /** As a stored record: the id is the path, the parent id the parent's path. */
  record(): PoolRecord {
    const parent = parentPath(this.path);
    return {
      id: this.path,
      parentId: parent === "/" ? null : parent,
      path: this.path,
      name: lastSegment(this.path),
      resources: this.resources(),
      slackLimitMaxPercent: this.slackPercent ?? 20,
      controllerLimitMaxPercent: null,
    };
  }
}

export function pool(path: string): PoolBuilder {
  return new PoolBuilder(path);
}

export function cluster(
  capacity: Partial<Resources>,
  pools: readonly PoolBuilder[],
  slackCapacity: Partial<Resources> = {},
): EntitlementInput {
  return { capacity, slackCapacity, pools: pools.map((p) => p.build()) };
}

/** Runs the calculator on a valid input and returns a lookup by path. */
export function entitle(
  input: EntitlementInput,
  explain: boolean | readonly string[] = false,
): { at: (path: string) => PoolEntitlement; result: EntitlementResult } {
  const outcome = calculateEntitlement(input, { explain });
  if (!outcome.ok) throw new Error(`invalid test input: ${JSON.stringify(outcome.error)}`);
  const result = outcome.result;
  return {
    result,
    at: (path) => {
      const e = entitlementOf(result, path);
      if (!e) throw new Error(`no pool ${path}`);
      return e;
    },
  };
}

export function treeOf(pools: readonly PoolBuilder[]): PoolTree {
  const built = buildPoolTree(pools.map((p) => p.record()));
  if (!built.ok) throw new Error(`invalid test tree: ${JSON.stringify(built.errors)}`);
  return built.tree;
}

/** Truncation to 2 decimals, the way the document compares Peloton's numbers. */
export function trunc2(n: number): number {
  return Math.trunc(n * 100 + 1e-9) / 100;
}

export function truncAll(r: Resources): Resources {
  return { cpu: trunc2(r.cpu), gpu: trunc2(r.gpu), memory: trunc2(r.memory), disk: trunc2(r.disk) };
}

/** Integer truncation, as Peloton's `tasktestutil.ValidateResources` compares. */
export function truncInt(r: Resources): Resources {
  return {
    cpu: Math.trunc(r.cpu),
    gpu: Math.trunc(r.gpu),
    memory: Math.trunc(r.memory),
    disk: Math.trunc(r.disk),
  };
}
