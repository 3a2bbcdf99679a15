/**
 * A slow, obvious placement to check `placeTasks` against: every task looks
 * at every host, in hostname order, through the filter and scorer units
 * directly — no task classes, no caches, no windows, no flat arrays. With
 * `hostsToScore` ≥ the number of hosts, `placeTasks` must agree with it on
 * every host, port, score, reason and count.
 */
import {
  constraintNamesExclusive,
  type Label,
  type LabelCounts,
  type PlacementHost,
  type PlacementTask,
  type PortRange,
  type RejectionCode,
  type Rejections,
  type Resources,
  subtractResources,
} from "../../src/index.ts";
import { constraintFilter } from "../../src/placement/filters/constraint.ts";
import { exclusiveFilter } from "../../src/placement/filters/exclusive.ts";
import { gpuFilter } from "../../src/placement/filters/gpu.ts";
import { hostStateFilter } from "../../src/placement/filters/host-state.ts";
import { portsFilter } from "../../src/placement/filters/ports.ts";
import { resourcesFilter } from "../../src/placement/filters/resources.ts";
import { stickyVolumeFilter } from "../../src/placement/filters/sticky-volume.ts";
import { kindVector } from "../../src/placement/kind-vector.ts";
import {
  lowestFreePorts,
  normalizePortRanges,
  portCount,
  removePorts,
} from "../../src/placement/ports.ts";
import { packScore } from "../../src/placement/scorers/pack.ts";
import { spreadScore } from "../../src/placement/scorers/spread.ts";
import { stickyScore } from "../../src/placement/scorers/sticky.ts";
import { combineScores, weightsFor } from "../../src/placement/scorers/strategy.ts";

interface HostState {
  free: Resources;
  ports: PortRange[];
  /** "key=value" → tasks with that label. */
  labels: Map<string, number>;
  jobs: Map<string, number>;
}

export interface ReferencePlacement {
  taskId: string;
  hostname: string;
  ports: { static: number[]; dynamic: number[] };
  total: number;
}

export interface ReferenceUnplaced {
  taskId: string;
  reason: "NO_HOSTS" | "NO_HOST_FITS" | "GANG_INCOMPLETE";
  rejections: Rejections;
  gang?: { gangId: string; size: number; fitting: number; memberFit: boolean };
}

export class ReferenceCluster {
  readonly hosts: PlacementHost[];
  private state: HostState[];

  constructor(
    hosts: readonly PlacementHost[],
    private readonly spreadAttribute = "zone",
  ) {
    this.hosts = [...hosts].sort((a, b) => (a.hostname < b.hostname ? -1 : 1));
    this.state = this.hosts.map((h) => ({
      free: { ...h.free },
      ports: normalizePortRanges(h.freePorts),
      labels: new Map(
        Object.entries(h.taskLabels).flatMap(([k, vs]) =>
          Object.entries(vs).map(([v, n]) => [`${k}=${v}`, n] as const),
        ),
      ),
      jobs: new Map(Object.entries(h.jobTasks)),
    }));
  }

  private counts(i: number): LabelCounts {
    const h = this.hosts[i]!;
    const s = this.state[i]!;
    return {
      count: (kind, l: Label) => {
        if (kind === "TASK") return s.labels.get(`${l.key}=${l.value}`) ?? 0;
        const v = Object.hasOwn(h.attributes, l.key)
          ? h.attributes[l.key]
          : l.key === "hostname"
            ? h.hostname
            : undefined;
        return v === l.value ? 1 : 0;
      },
    };
  }

  /** The first filter that rejects host `i`, in the pipeline's order; null: it fits. */
  rejection(t: PlacementTask, i: number): RejectionCode | null {
    const h = this.hosts[i]!;
    const s = this.state[i]!;
    return (
      stickyVolumeFilter(t.volumeHost, h.hostname) ??
      hostStateFilter(h.state) ??
      gpuFilter(t.resources.gpu, h.total.gpu) ??
      exclusiveFilter(h.attributes, constraintNamesExclusive(t.constraint)) ??
      constraintFilter(t.constraint, this.counts(i)) ??
      resourcesFilter(kindVector(t.resources), kindVector(s.free)) ??
      portsFilter(t.ports, s.ports, portCount(s.ports))
    );
  }

  rejections(t: PlacementTask): Rejections {
    const out: Rejections = {};
    this.hosts.forEach((_, i) => {
      const code = this.rejection(t, i);
      if (code) out[code] = (out[code] ?? 0) + 1;
    });
    return out;
  }

  private inDomain(job: string, i: number): number | null {
    const value = this.hosts[i]!.attributes[this.spreadAttribute];
    if (value === undefined) return null;
    let n = 0;
    this.hosts.forEach((h, j) => {
      if (h.attributes[this.spreadAttribute] === value) n += this.state[j]!.jobs.get(job) ?? 0;
    });
    return n;
  }

  private fewestInDomain(job: string): number {
    const values = new Set(this.hosts.flatMap((h) => h.attributes[this.spreadAttribute] ?? []));
    let min = Infinity;
    for (const v of values) {
      const i = this.hosts.findIndex((h) => h.attributes[this.spreadAttribute] === v);
      min = Math.min(min, this.inDomain(job, i)!);
    }
    return values.size === 0 ? 0 : min;
  }

  score(t: PlacementTask, i: number): number {
    const h = this.hosts[i]!;
    const s = this.state[i]!;
    const pack = packScore(kindVector(t.resources), kindVector(s.free), kindVector(h.total));
    const spread = spreadScore(
      s.jobs.get(t.jobId) ?? 0,
      this.inDomain(t.jobId, i),
      this.fewestInDomain(t.jobId),
    );
    const sticky = stickyScore(h.hostname, t.previousHost);
    return combineScores(
      weightsFor(t.strategy, t.previousHost !== undefined),
      pack,
      spread,
      sticky,
    );
  }

  /** The best feasible host (ties: first hostname), or -1. */
  choose(t: PlacementTask): number {
    let best = -1;
    let bestScore = -1;
    this.hosts.forEach((_, i) => {
      if (this.rejection(t, i) !== null) return;
      const s = this.score(t, i);
      if (s > bestScore) {
        best = i;
        bestScore = s;
      }
    });
    return best;
  }

  commit(t: PlacementTask, i: number): ReferencePlacement {
    const s = this.state[i]!;
    const total = this.score(t, i);
    s.free = subtractResources(s.free, t.resources);
    const dynamic = lowestFreePorts(s.ports, t.ports.dynamic, t.ports.static);
    s.ports = removePorts(s.ports, [...t.ports.static, ...dynamic]);
    for (const l of t.labels) {
      const k = `${l.key}=${l.value}`;
      s.labels.set(k, (s.labels.get(k) ?? 0) + 1);
    }
    s.jobs.set(t.jobId, (s.jobs.get(t.jobId) ?? 0) + 1);
    return {
      taskId: t.taskId,
      hostname: this.hosts[i]!.hostname,
      ports: { static: [...t.ports.static], dynamic },
      total,
    };
  }

  private save(): HostState[] {
    return this.state.map((s) => ({
      free: { ...s.free },
      ports: [...s.ports],
      labels: new Map(s.labels),
      jobs: new Map(s.jobs),
    }));
  }

  /** The whole batch, gangs all or nothing. */
  placeAll(tasks: readonly PlacementTask[]): {
    placements: ReferencePlacement[];
    unplaced: ReferenceUnplaced[];
  } {
    const gangs = new Map<string, PlacementTask[]>();
    const order: PlacementTask[][] = [];
    for (const t of tasks) {
      const key = t.gangId ?? `\u0000${t.taskId}`;
      if (!gangs.has(key)) {
        gangs.set(key, []);
        order.push(gangs.get(key)!);
      }
      gangs.get(key)!.push(t);
    }
    const placed = new Map<string, ReferencePlacement>();
    const unplaced = new Map<string, ReferenceUnplaced>();
    for (const gang of order) {
      const saved = this.save();
      const tried = gang.map((t) => {
        const i = this.choose(t);
        if (i < 0) {
          return { t, p: null, rejections: this.hosts.length === 0 ? {} : this.rejections(t) };
        }
        return { t, p: this.commit(t, i), rejections: {} };
      });
      const fitting = tried.filter((x) => x.p).length;
      if (fitting === gang.length) {
        for (const x of tried) placed.set(x.t.taskId, x.p!);
        continue;
      }
      this.state = saved;
      for (const x of tried) {
        const reason =
          gang.length > 1
            ? "GANG_INCOMPLETE"
            : this.hosts.length === 0
              ? "NO_HOSTS"
              : "NO_HOST_FITS";
        unplaced.set(x.t.taskId, {
          taskId: x.t.taskId,
          reason,
          rejections: x.rejections,
          ...(gang.length > 1
            ? { gang: { gangId: x.t.gangId!, size: gang.length, fitting, memberFit: x.p !== null } }
            : {}),
        });
      }
    }
    return {
      placements: tasks.flatMap((t) => placed.get(t.taskId) ?? []),
      unplaced: tasks.flatMap((t) => unplaced.get(t.taskId) ?? []),
    };
  }
}
