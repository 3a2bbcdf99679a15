/**
 * Placement's snapshot from what the host manager leased and what the
 * database knows (pure): hosts with their free resources and ports (the
 * lease), state and totals (the host table: DRAINING and DOWN take nothing),
 * and what already runs there (task labels for TASK constraints, job counts
 * for spreading); tasks with what their merged config asks for.
 */
import {
  type Constraint,
  HOSTNAME_ATTRIBUTE,
  type HostState,
  type JobConfig,
  jobKind,
  type Label,
  type PlacementHost,
  type PlacementHostState,
  type PlacementStrategy,
  type PlacementTask,
  type PortRequest,
  type TaskConfig,
  taskConfigFor,
} from "@peloton/engine";
import type { HostFacts, PlacedTaskRow, ReadyTaskRow } from "@peloton/storage";
import type { HostLease } from "../hostmgr/host-adapter.ts";
import { configKey } from "../taskwriter/job-configs.ts";

/** What runs on the hosts now. */
export interface Occupancy {
  /** hostname → job id → tasks holding resources there. */
  jobTasks: ReadonlyMap<string, Readonly<Record<string, number>>>;
  /** hostname → label key → value → tasks with that label there. */
  taskLabels: ReadonlyMap<string, Readonly<Record<string, Readonly<Record<string, number>>>>>;
}

/** Each host state as placement sees it. */
const PLACEMENT_STATE: Record<HostState, PlacementHostState> = {
  UP: "UP",
  DRAINING: "DRAINING",
  // Nothing left to drain, and still out of service until brought up.
  DRAINED: "DRAINING",
  DOWN: "DOWN",
};

/**
 * The leased hosts with what they offer, and every other known host with
 * nothing free (fully used, its offer out, draining or down): those never
 * take a task, but they count in the reasons, so "why pending" speaks of the
 * whole cluster ("2 hosts lack 1 cpu, 1 host is draining").
 */
export function placementHosts(
  leases: readonly HostLease[],
  facts: ReadonlyMap<string, HostFacts>,
  occupancy: Occupancy,
): PlacementHost[] {
  const leased = new Set(leases.map((l) => l.hostname));
  const unoffered: PlacementHost[] = [...facts.values()]
    .filter((f) => !leased.has(f.hostname))
    .map((f) => ({
      hostname: f.hostname,
      agentId: "",
      state: PLACEMENT_STATE[f.state],
      total: f.total,
      free: { cpu: 0, gpu: 0, memory: 0, disk: 0 },
      attributes: f.attributes,
      freePorts: [],
      taskLabels: occupancy.taskLabels.get(f.hostname) ?? {},
      jobTasks: occupancy.jobTasks.get(f.hostname) ?? {},
    }));
  return [...offeredHosts(leases, facts, occupancy), ...unoffered];
}

function offeredHosts(
  leases: readonly HostLease[],
  facts: ReadonlyMap<string, HostFacts>,
  occupancy: Occupancy,
): PlacementHost[] {
  return leases.map((l) => {
    const f = facts.get(l.hostname);
    const free = { cpu: l.free.cpu, gpu: l.free.gpu, memory: l.free.memMb, disk: l.free.diskMb };
    return {
      hostname: l.hostname,
      agentId: l.hostId,
      // A host the table does not have yet (just registered) is taken as UP.
      state: f ? PLACEMENT_STATE[f.state] : "UP",
      total: f?.total ?? free,
      free,
      attributes: l.attributes,
      freePorts: l.freePorts,
      taskLabels: occupancy.taskLabels.get(l.hostname) ?? {},
      jobTasks: occupancy.jobTasks.get(l.hostname) ?? {},
    };
  });
}

/** Counts the labels of tasks on hosts (their merged configs' labels). */
export function taskLabelsOnHosts(
  tasks: readonly PlacedTaskRow[],
  configs: ReadonlyMap<string, JobConfig>,
): Occupancy["taskLabels"] {
  const out = new Map<string, Record<string, Record<string, number>>>();
  for (const t of tasks) {
    const config = configs.get(t.jobId);
    const labels = config ? taskLabelsOf(config, taskConfigFor(config, t.instanceId)) : [];
    if (labels.length === 0) continue;
    let host = out.get(t.hostname);
    if (!host) {
      host = {};
      out.set(t.hostname, host);
    }
    for (const l of labels) {
      const values = host[l.key] ?? {};
      values[l.value] = (values[l.value] ?? 0) + 1;
      host[l.key] = values;
    }
  }
  return out;
}

/** A task's labels for TASK constraints: the job's labels and the task config's own. */
export function taskLabelsOf(config: JobConfig, task: TaskConfig): Label[] {
  return [...config.labels, ...(task.labels ?? [])];
}

/** Static ports (a fixed `value`) in config order, and how many dynamic ones. */
export function portRequestOf(task: TaskConfig): PortRequest {
  const ports = task.ports ?? [];
  return {
    static: ports.flatMap((p) => (p.value !== undefined && p.value > 0 ? [p.value] : [])),
    dynamic: ports.filter((p) => p.value === undefined || p.value <= 0).length,
  };
}

/**
 * The number each named port got: static ones in config order, dynamic ones
 * from placement's picks in config order.
 */
export function assignPorts(
  task: TaskConfig,
  picked: { readonly static: readonly number[]; readonly dynamic: readonly number[] },
): { name: string; envName?: string | undefined; number: number }[] {
  let s = 0;
  let d = 0;
  return (task.ports ?? []).map((p) => {
    const isStatic = p.value !== undefined && p.value > 0;
    const number = isStatic ? picked.static[s++]! : picked.dynamic[d++]!;
    return { name: p.name, envName: p.envName, number };
  });
}

/** Peloton's default strategies: pack batch work, spread everything that keeps running. */
export function strategyOf(config: JobConfig): PlacementStrategy {
  return config.placementStrategy ?? (jobKind(config) === "BATCH" ? "PACK_HOST" : "SPREAD_JOB");
}

/** The constraint with a DAEMON instance's host pin added (the implied `hostname` attribute). */
function withPin(constraint: Constraint | undefined, host: string | null): Constraint | undefined {
  if (host === null) return constraint;
  const pin: Constraint = {
    type: "LABEL_CONSTRAINT",
    kind: "HOST",
    label: { key: HOSTNAME_ATTRIBUTE, value: host },
    condition: "EQUAL",
    requirement: 1,
  };
  return constraint ? { type: "AND_CONSTRAINT", constraints: [pin, constraint] } : pin;
}

/**
 * READY tasks as placement tasks, each with its run's config (keyed by
 * `configKey(job, config version)`). A batch job's first
 * `minimumRunningInstances` instances placed together form one gang.
 */
export function placementTasks(
  ready: readonly ReadyTaskRow[],
  configs: ReadonlyMap<string, JobConfig>,
): PlacementTask[] {
  const out: PlacementTask[] = [];
  for (const row of ready) {
    const config = configs.get(configKey(row.jobId, row.configVersion));
    if (!config) continue;
    const task = taskConfigFor(config, row.instanceId);
    const m = config.sla.minimumRunningInstances;
    const ganged = jobKind(config) === "BATCH" && m > 1 && row.instanceId < m;
    const constraint = withPin(task.constraint, row.pinnedHost);
    out.push({
      taskId: row.taskId,
      jobId: row.jobId,
      instance: row.instanceId,
      ...(ganged ? { gangId: `${row.jobId}/gang` } : {}),
      resources: row.resources,
      ports: portRequestOf(task),
      ...(constraint ? { constraint } : {}),
      strategy: strategyOf(config),
      labels: taskLabelsOf(config, task),
      ...(row.volume ? { volumeHost: row.volume.hostname } : {}),
      ...(row.previousHost ? { previousHost: row.previousHost } : {}),
    });
  }
  return out;
}
