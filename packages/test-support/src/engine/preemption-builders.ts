/**
 * Fixture builders for preemption (STYLE.md §8):
 * `leaf("/web").entitled({ cpu: 24 }).allocated({ cpu: 30 })`,
 * `running("w1").in("/web").priority(1).cpu(2).started(100)`,
 * `gang("g").in("/web").priority(5).cpu(6)`. Amounts not given are 0; tasks
 * are preemptible, non-revocable, job "job", priority 0.
 */

import {
  decidePreemptions,
  type EntitlementBaselines,
  type JobAvailability,
  type PendingGang,
  type PreemptionInput,
  type PreemptionPool,
  type PreemptionTask,
  type Resources,
  toResources,
} from "@peloton/engine";
import { expect } from "vitest";

export class LeafBuilder {
  private readonly r = {
    nonSlackEntitlement: toResources({}),
    slackEntitlement: toResources({}),
    allocation: toResources({}),
    slackAllocation: toResources({}),
    demand: toResources({}),
    slackDemand: toResources({}),
  };
  constructor(readonly path: string) {}
  private set(field: keyof LeafBuilder["r"], v: Partial<Resources>): this {
    this.r[field] = toResources(v);
    return this;
  }
  entitled(v: Partial<Resources>): this {
    return this.set("nonSlackEntitlement", v);
  }
  allocated(v: Partial<Resources>): this {
    return this.set("allocation", v);
  }
  demand(v: Partial<Resources>): this {
    return this.set("demand", v);
  }
  slackEntitled(v: Partial<Resources>): this {
    return this.set("slackEntitlement", v);
  }
  slackAllocated(v: Partial<Resources>): this {
    return this.set("slackAllocation", v);
  }
  slackDemand(v: Partial<Resources>): this {
    return this.set("slackDemand", v);
  }
  /** Of the allocation, admitted tasks waiting for a host. */
  unplaced(v: Partial<Resources>): this {
    this.extra.unplaced = toResources(v);
    return this;
  }
  private readonly extra: { unplaced?: Resources } = {};
  build(): PreemptionPool {
    return { path: this.path, ...structuredClone(this.r), ...structuredClone(this.extra) };
  }
}

export const leaf = (path: string) => new LeafBuilder(path);

/** What tasks and waiting gangs share: a pool, a priority, resources. */
abstract class PoolMember {
  protected pool = "/";
  protected prio = 0;
  protected resources = toResources({});
  in(pool: string): this {
    this.pool = pool;
    return this;
  }
  priority(p: number): this {
    this.prio = p;
    return this;
  }
  res(r: Partial<Resources>): this {
    this.resources = toResources(r);
    return this;
  }
  cpu(n: number): this {
    return this.res({ ...this.resources, cpu: n });
  }
}

export class TaskBuilder extends PoolMember {
  private jobId = "job";
  private preemptible = true;
  private revocable = false;
  private startedAt: number | undefined;
  constructor(
    readonly taskId: string,
    private readonly state: string,
  ) {
    super();
  }
  job(id: string): this {
    this.jobId = id;
    return this;
  }
  started(at: number): this {
    this.startedAt = at;
    return this;
  }
  revocableTask(): this {
    this.revocable = true;
    return this;
  }
  notPreemptible(): this {
    this.preemptible = false;
    return this;
  }
  build(): PreemptionTask {
    return {
      taskId: this.taskId,
      jobId: this.jobId,
      pool: this.pool,
      state: this.state,
      priority: this.prio,
      preemptible: this.preemptible,
      revocable: this.revocable,
      resources: { ...this.resources },
      ...(this.startedAt === undefined ? {} : { startedAt: this.startedAt }),
    };
  }
}

export const running = (id: string) => new TaskBuilder(id, "RUNNING");
export const ready = (id: string) => new TaskBuilder(id, "READY");
export const placing = (id: string) => new TaskBuilder(id, "PLACING");
export const inState = (id: string, state: string) => new TaskBuilder(id, state);

export class GangBuilder extends PoolMember {
  private revocable = false;
  constructor(readonly gangId: string) {
    super();
  }
  revocableGang(): this {
    this.revocable = true;
    return this;
  }
  build(): PendingGang {
    return {
      gangId: this.gangId,
      pool: this.pool,
      priority: this.prio,
      revocable: this.revocable,
      resources: { ...this.resources },
      taskIds: [`${this.gangId}-0`],
    };
  }
}

export const gang = (id: string) => new GangBuilder(id);

export interface Cycle {
  pools: LeafBuilder[];
  tasks?: TaskBuilder[];
  jobs?: Record<string, JobAvailability>;
  /** Previous counts; default: every pool one period short of the sustained count. */
  counts?: Record<string, number>;
  sustained?: number;
  waiting?: GangBuilder[];
  /** Per pool, every leaf's entitlements at its last period within its own (takers.ts). */
  baselines?: EntitlementBaselines;
}

export function cycleInput(c: Cycle): PreemptionInput {
  const sustained = c.sustained ?? 1;
  return {
    pools: c.pools.map((p) => p.build()),
    tasks: (c.tasks ?? []).map((t) => t.build()),
    jobs: c.jobs ?? {},
    overAllocationCounts:
      c.counts ?? Object.fromEntries(c.pools.map((p) => [p.path, sustained - 1])),
    sustainedCount: sustained,
    ...(c.waiting ? { waiting: c.waiting.map((g) => g.build()) } : {}),
    ...(c.baselines ? { entitlementBaselines: c.baselines } : {}),
  };
}

/** Runs one cycle on valid input. */
export function cycle(c: Cycle) {
  const result = decidePreemptions(cycleInput(c));
  if (!result.ok) throw new Error(`invalid test input: ${JSON.stringify(result.errors)}`);
  return {
    ...result,
    victims: (kind?: "INTER_POOL" | "INTRA_POOL") =>
      result.decisions.filter((d) => !kind || d.kind === kind).map((d) => d.victim.taskId),
    decision: (taskId: string) => {
      const d = result.decisions.find((x) => x.victim.taskId === taskId);
      expect(d, `${taskId} is a victim`).toBeDefined();
      return d!;
    },
  };
}
