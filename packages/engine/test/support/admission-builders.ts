/**
 * Admission fixtures (STYLE.md §8): `leaf('/a').entitled({ cpu: 12 }).alloc({ cpu: 10 })
 * .queue(gang('g1').needs({ cpu: 2 }))`. Defaults: entitlement 1000 of each
 * kind, no slack, no reservation, no controller limit, nothing allocated; a
 * gang is one preemptible task of priority 0, arriving in the order given.
 */
import {
  type AdmissionGang,
  type AdmissionPool,
  type ClusterShape,
  type PoolAllocation,
  type Resources,
  toResources,
  zeroResources,
} from "../../src/index.ts";

export class GangBuilder {
  private g: { -readonly [K in keyof AdmissionGang]: AdmissionGang[K] };
  seqGiven = false;

  constructor(id: string) {
    this.g = {
      id,
      priority: 0,
      seq: 0,
      resources: zeroResources(),
      preemptible: true,
      revocable: false,
      controller: false,
    };
  }
  needs(r: Partial<Resources>): this {
    this.g.resources = toResources(r);
    return this;
  }
  priority(p: number): this {
    this.g.priority = p;
    return this;
  }
  seq(s: number): this {
    this.g.seq = s;
    this.seqGiven = true;
    return this;
  }
  tasks(n: number): this {
    this.g.tasks = n;
    return this;
  }
  nonPreemptible(): this {
    this.g.preemptible = false;
    return this;
  }
  revocable(): this {
    this.g.revocable = true;
    return this;
  }
  controller(): this {
    this.g.controller = true;
    return this;
  }
  /** Each task's own request (and ports), for the hosts' check. */
  eachTask(r: Partial<Resources>, ports = 0): this {
    this.g.shapes = [{ resources: toResources(r), ports }];
    return this;
  }
  build(defaultSeq: number): AdmissionGang {
    return { ...this.g, seq: this.seqGiven ? this.g.seq : defaultSeq };
  }
}

export const gang = (id: string) => new GangBuilder(id);

const lots: Resources = { cpu: 1000, gpu: 1000, memory: 1000, disk: 1000 };

export class LeafBuilder {
  private pool: { -readonly [K in keyof AdmissionPool]: AdmissionPool[K] };
  private held: { -readonly [K in keyof PoolAllocation]: Resources };
  private waiting: GangBuilder[] = [];

  constructor(path: string) {
    this.pool = {
      path,
      nonSlackEntitlement: lots,
      slackEntitlement: zeroResources(),
      reservation: zeroResources(),
      controllerLimitPercent: null,
      allocation: {
        nonRevocable: zeroResources(),
        slack: zeroResources(),
        controller: zeroResources(),
        nonPreemptible: zeroResources(),
      },
      gangs: [],
    };
    this.held = { ...this.pool.allocation };
  }
  /** The non-slack entitlement; kinds left out keep 1000. */
  entitled(r: Partial<Resources>): this {
    this.pool.nonSlackEntitlement = { ...lots, ...r };
    return this;
  }
  slackEntitled(r: Partial<Resources>): this {
    this.pool.slackEntitlement = toResources(r);
    return this;
  }
  reserve(r: Partial<Resources>): this {
    this.pool.reservation = toResources(r);
    return this;
  }
  /** The lowest limit on the pool's path (kinds left out: 1000). */
  limited(r: Partial<Resources>): this {
    this.pool.limit = { ...lots, ...r };
    return this;
  }
  controllerLimit(maxPercent: number): this {
    this.pool.controllerLimitPercent = maxPercent;
    return this;
  }
  /** Non-revocable allocation. */
  alloc(r: Partial<Resources>): this {
    this.held.nonRevocable = toResources(r);
    return this;
  }
  slackAlloc(r: Partial<Resources>): this {
    this.held.slack = toResources(r);
    return this;
  }
  controllerAlloc(r: Partial<Resources>): this {
    this.held.controller = toResources(r);
    return this;
  }
  nonPreemptibleAlloc(r: Partial<Resources>): this {
    this.held.nonPreemptible = toResources(r);
    return this;
  }
  /** Gangs in arrival order (their seq is their place here unless given). */
  queue(...gangs: GangBuilder[]): this {
    this.waiting.push(...gangs);
    return this;
  }
  build(): AdmissionPool {
    return {
      ...this.pool,
      allocation: { ...this.held },
      gangs: this.waiting.map((g, i) => g.build(i)),
    };
  }
}

export const leaf = (path: string) => new LeafBuilder(path);

/** A cluster of hosts given by their sizes (each one host; `ports` offered by each). */
export function cluster(...hosts: (Partial<Resources> & { ports?: number })[]): ClusterShape {
  const shapes = hosts.map(({ ports, ...r }) => ({
    resources: toResources(r),
    ports: ports ?? 1000,
    hosts: 1,
  }));
  const capacity = zeroResources();
  for (const h of shapes) {
    capacity.cpu += h.resources.cpu;
    capacity.gpu += h.resources.gpu;
    capacity.memory += h.resources.memory;
    capacity.disk += h.resources.disk;
  }
  return { capacity, hosts: shapes };
}
