/**
 * Tasks on a leased host → the operations of one ACCEPT: LAUNCH, preceded
 * for a new persistent volume by RESERVE (the disk, for our role) and CREATE
 * (the volume). Ports are picked from the lease's free ranges in order.
 * Checks that everything fits first: a refusal is data, nothing is sent.
 */
import type { HealthCheckSpec } from "@peloton/engine";
import {
  calls,
  type HealthCheck,
  type Offer,
  type OfferOperation,
  type Resource,
  rangesResource,
  scalarResource,
  type TaskInfo,
  volumeResource,
} from "@peloton/mesos";
import type {
  HostResources,
  LaunchedTask,
  LaunchRefusal,
  PortRange,
  Resources,
  TaskLaunch,
} from "../host-adapter.ts";

export interface LaunchPlan {
  operations: OfferOperation[];
  launched: LaunchedTask[];
}

const KINDS: (keyof Resources)[] = ["cpu", "memMb", "diskMb", "gpu"];

export function planLaunch(
  host: HostResources,
  offers: readonly Offer[],
  tasks: readonly TaskLaunch[],
  role: string,
): { ok: true; plan: LaunchPlan } | { ok: false; refusal: LaunchRefusal } {
  const needed: Resources = { cpu: 0, memMb: 0, diskMb: 0, gpu: 0 };
  for (const t of tasks) {
    for (const k of KINDS) needed[k] += t.resources[k];
    // A new volume's disk is carved out of the unreserved disk too.
    if (t.volume?.create) needed.diskMb += t.volume.sizeMb;
  }
  for (const k of KINDS) {
    if (needed[k] > host.free[k] + 1e-9) {
      return {
        ok: false,
        refusal: { code: "DOES_NOT_FIT", resource: k, needed: needed[k], free: host.free[k] },
      };
    }
  }
  // Ports placement chose are taken as they are; the others are picked from what is left.
  const chosen = tasks.flatMap((t) => Object.values(t.ports ?? {}));
  const free = host.freePorts.reduce((n, r) => n + r.end - r.begin + 1, 0);
  const notFree = chosen.filter((p) => !host.freePorts.some((r) => p >= r.begin && p <= r.end));
  if (notFree.length > 0 || new Set(chosen).size < chosen.length) {
    return {
      ok: false,
      refusal: { code: "DOES_NOT_FIT", resource: "ports", needed: chosen.length, free },
    };
  }
  const portsWanted = tasks.reduce((n, t) => n + (t.ports ? 0 : (t.portNames?.length ?? 0)), 0);
  const ports = pickPorts(withoutPorts(host.freePorts, chosen), portsWanted);
  if (ports === undefined) {
    return {
      ok: false,
      refusal: {
        code: "DOES_NOT_FIT",
        resource: "ports",
        needed: portsWanted + chosen.length,
        free,
      },
    };
  }
  const allocationRole = offers[0]?.allocation_info?.role ?? role;
  const operations: OfferOperation[] = [];
  const infos: TaskInfo[] = [];
  const launched: LaunchedTask[] = [];
  let next = 0;
  for (const t of tasks) {
    const named: Record<string, number> = { ...t.ports };
    if (!t.ports) for (const name of t.portNames ?? []) named[name] = ports[next++]!;
    const volume = t.volume
      ? volumeResource({
          role,
          sizeMb: t.volume.sizeMb,
          persistenceId: t.volume.id,
          containerPath: t.volume.containerPath,
          principal: role,
          allocationRole,
        })
      : undefined;
    if (t.volume?.create && volume) {
      const { disk: _disk, ...reserved } = volume;
      operations.push(
        { type: "RESERVE", reserve: { resources: [reserved] } },
        { type: "CREATE", create: { volumes: [volume] } },
      );
    }
    infos.push(taskInfo(t, host.hostId, named, allocationRole, volume));
    launched.push({ taskId: t.taskId, hostname: host.hostname, hostId: host.hostId, ports: named });
  }
  operations.push(calls.launchOperation(infos));
  return { ok: true, plan: { operations, launched } };
}

function taskInfo(
  t: TaskLaunch,
  agentId: string,
  ports: Record<string, number>,
  allocationRole: string,
  volume: Resource | undefined,
): TaskInfo {
  const opts = { allocationRole };
  const resources: Resource[] = [
    scalarResource("cpus", t.resources.cpu, opts),
    scalarResource("mem", t.resources.memMb, opts),
  ];
  if (t.resources.diskMb > 0) resources.push(scalarResource("disk", t.resources.diskMb, opts));
  if (t.resources.gpu > 0) resources.push(scalarResource("gpus", t.resources.gpu, opts));
  const portValues = Object.values(ports);
  if (portValues.length > 0) {
    resources.push(
      rangesResource(
        "ports",
        portValues.map((p) => [p, p] as const),
        opts,
      ),
    );
  }
  if (volume) resources.push(volume);
  const env = Object.entries({ ...t.command.environment, ...portEnvironment(ports) });
  const info: TaskInfo = {
    name: t.name,
    task_id: { value: t.taskId },
    agent_id: { value: agentId },
    resources,
    command: {
      value: t.command.value,
      shell: t.command.shell ?? true,
      ...(t.command.arguments ? { arguments: [...t.command.arguments] } : {}),
      ...(env.length > 0
        ? { environment: { variables: env.map(([name, value]) => ({ name, value })) } }
        : {}),
    },
  };
  if (t.image)
    info.container = {
      type: "MESOS",
      mesos: { image: { type: "DOCKER", docker: { name: t.image } } },
    };
  if (t.labels) {
    info.labels = { labels: Object.entries(t.labels).map(([key, value]) => ({ key, value })) };
  }
  if (t.killGracePeriodSeconds !== undefined) {
    info.kill_policy = {
      grace_period: { nanoseconds: Math.round(t.killGracePeriodSeconds * 1e9) },
    };
  }
  if (t.healthCheck) info.health_check = mesosHealthCheck(t.healthCheck);
  return info;
}

/** The spec as Mesos' HealthCheck; unset timings keep Mesos' defaults. */
function mesosHealthCheck(h: HealthCheckSpec): HealthCheck {
  const out: HealthCheck = { type: h.type };
  if (h.delaySeconds !== undefined) out.delay_seconds = h.delaySeconds;
  if (h.intervalSeconds !== undefined) out.interval_seconds = h.intervalSeconds;
  if (h.timeoutSeconds !== undefined) out.timeout_seconds = h.timeoutSeconds;
  if (h.consecutiveFailures !== undefined) out.consecutive_failures = h.consecutiveFailures;
  if (h.command) {
    const env = Object.entries(h.command.environment ?? {});
    out.command = {
      shell: true,
      value: h.command.value,
      ...(env.length > 0
        ? { environment: { variables: env.map(([name, value]) => ({ name, value })) } }
        : {}),
    };
  }
  if (h.http) out.http = { ...h.http };
  return out;
}

/** PORT_<NAME>=<port>, as Peloton exposes named ports to the task. */
function portEnvironment(ports: Record<string, number>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ports).map(([name, port]) => [`PORT_${name.toUpperCase()}`, String(port)]),
  );
}

/** The first `count` free ports, in range order; undefined when there are not enough. */
export function pickPorts(ranges: readonly PortRange[], count: number): number[] | undefined {
  const out: number[] = [];
  for (const r of ranges) {
    for (let p = r.begin; p <= r.end && out.length < count; p++) out.push(p);
    if (out.length === count) return out;
  }
  return out.length === count ? out : undefined;
}

/** The ranges without the given ports. */
function withoutPorts(ranges: readonly PortRange[], taken: readonly number[]): PortRange[] {
  if (taken.length === 0) return [...ranges];
  const set = new Set(taken);
  const out: PortRange[] = [];
  for (const r of ranges) {
    let begin = r.begin;
    for (let p = r.begin; p <= r.end + 1; p++) {
      if (p > r.end || set.has(p)) {
        if (p > begin) out.push({ begin, end: p - 1 });
        begin = p + 1;
      }
    }
  }
  return out;
}
