/**
 * Seeded random clusters and task batches for the placement benchmark and the
 * cross-check tests: same seed, same hosts and tasks. Hosts have zones and
 * racks, some GPUs, a few are draining, down or exclusive; tasks come in jobs
 * of mixed sizes and strategies, some with constraints, ports or gangs.
 */
import type {
  Constraint,
  PlacementHost,
  PlacementHostState,
  PlacementTask,
  Resources,
} from "../src/index.ts";

export interface RandomClusterOptions {
  readonly hosts: number;
  readonly tasks: number;
  /** Tasks per job (the last job takes the rest). */
  readonly jobSize?: number;
  readonly zones?: number;
  readonly racks?: number;
}

export interface RandomCluster {
  readonly hosts: PlacementHost[];
  readonly tasks: PlacementTask[];
}

export function randomCluster(random: () => number, opts: RandomClusterOptions): RandomCluster {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const zones = Array.from({ length: opts.zones ?? 5 }, (_, i) => `zone-${i}`);
  const racks = Math.max(1, opts.racks ?? Math.ceil(opts.hosts / 50));

  const hosts: PlacementHost[] = [];
  for (let i = 0; i < opts.hosts; i++) {
    const gpu = random() < 0.05 ? pick([4, 8]) : 0;
    const total: Resources = {
      cpu: pick([32, 48, 64]),
      gpu,
      memory: pick([128_000, 256_000]),
      disk: 1_000_000,
    };
    const roll = random();
    const state: PlacementHostState = roll < 0.01 ? "DRAINING" : roll < 0.015 ? "DOWN" : "UP";
    const attributes: Record<string, string> = {
      zone: pick(zones),
      rack: `rack-${Math.floor(random() * racks)}`,
    };
    if (random() < 0.01) attributes["peloton/exclusive"] = "ml";
    hosts.push({
      hostname: `host-${String(i).padStart(6, "0")}`,
      agentId: `agent-${i}`,
      state,
      total,
      free: { ...total },
      attributes,
      freePorts: [{ begin: 31000, end: 32000 }],
      taskLabels: {},
      jobTasks: {},
    });
  }

  const tasks: PlacementTask[] = [];
  const jobSize = opts.jobSize ?? 100;
  for (let j = 0; tasks.length < opts.tasks; j++) {
    const jobId = `job-${j}`;
    const service = random() < 0.3;
    const gpuJob = random() < 0.04;
    const resources: Resources = {
      cpu: pick([0.5, 1, 2, 4]),
      gpu: gpuJob ? 1 : 0,
      memory: pick([1024, 2048, 4096, 8192]),
      disk: pick([1000, 5000]),
    };
    const roll = random();
    const constraint: Constraint | undefined =
      roll < 0.1
        ? hostIs("zone", pick(zones))
        : roll < 0.13
          ? {
              type: "LABEL_CONSTRAINT",
              kind: "TASK",
              label: { key: "app", value: jobId },
              condition: "LESS_THAN",
              requirement: 2,
            }
          : roll < 0.15
            ? { type: "NOT_CONSTRAINT", constraint: hostIs("zone", pick(zones)) }
            : roll < 0.155
              ? hostIs("peloton/exclusive", "ml")
              : undefined;
    const gang = !service && random() < 0.05 ? 4 + Math.floor(random() * 5) : 0;
    const count = Math.min(jobSize, opts.tasks - tasks.length);
    for (let i = 0; i < count; i++) {
      tasks.push({
        taskId: `${jobId}-${i}`,
        jobId,
        instance: i,
        ...(gang > 0 ? { gangId: `${jobId}-gang-${Math.floor(i / gang)}` } : {}),
        resources,
        ports: { dynamic: service ? 2 : 0, static: [] },
        ...(constraint ? { constraint } : {}),
        strategy: service ? "SPREAD_JOB" : "PACK_HOST",
        labels: [{ key: "app", value: jobId }],
      });
    }
  }
  return { hosts, tasks };
}

function hostIs(key: string, value: string): Constraint {
  return {
    type: "LABEL_CONSTRAINT",
    kind: "HOST",
    label: { key, value },
    condition: "EQUAL",
    requirement: 1,
  };
}
