/**
 * Agent specifications: the agent file format of `mesos-sim --agents` and of
 * `startMesosSim({ agents })`, its conversion to Resource/Attribute
 * messages, and the demo cluster the app starts by default.
 */
import { readFileSync } from "node:fs";
import type { Attribute, Range, Resource } from "../proto/messages.ts";
import { parseRanges } from "../resources/ranges.ts";

export interface AgentResourcesSpec {
  cpus: number;
  /** MB */
  mem: number;
  /** MB */
  disk?: number;
  gpus?: number;
  /** "31000-32000,33000-33100" or [[31000, 32000]]. Default 31000-32000. */
  ports?: string | ReadonlyArray<readonly [number, number]>;
}

export interface AgentSpec {
  /** Default: "<master id>-S<n>" (a checkpointed agent keeps its id). Giving the id of a removed agent re-registers it. */
  id?: string;
  hostname?: string;
  resources: AgentResourcesSpec;
  /** Text or scalar attributes, e.g. { zone: "us-east-1a", rack: 7 }. */
  attributes?: Readonly<Record<string, string | number>>;
  /** Simulate every task on this agent instead of running processes. */
  simulateTasks?: boolean;
}

export function agentResources(spec: AgentSpec): Resource[] {
  const r = spec.resources;
  const out: Resource[] = [
    { name: "cpus", type: "SCALAR", scalar: { value: r.cpus }, role: "*" },
    { name: "mem", type: "SCALAR", scalar: { value: r.mem }, role: "*" },
  ];
  if (r.disk !== undefined && r.disk > 0) {
    out.push({ name: "disk", type: "SCALAR", scalar: { value: r.disk }, role: "*" });
  }
  if (r.gpus !== undefined && r.gpus > 0) {
    out.push({ name: "gpus", type: "SCALAR", scalar: { value: r.gpus }, role: "*" });
  }
  const ports = portRanges(r.ports);
  if (ports.length > 0)
    out.push({ name: "ports", type: "RANGES", ranges: { range: ports }, role: "*" });
  return out;
}

function portRanges(ports: AgentResourcesSpec["ports"]): Range[] {
  if (ports === undefined) return [{ begin: 31000, end: 32000 }];
  if (typeof ports === "string") return parseRanges(ports);
  return ports.map(([begin, end]) => ({ begin, end }));
}

export function agentAttributes(spec: AgentSpec): Attribute[] {
  return Object.entries(spec.attributes ?? {}).map(([name, value]) =>
    typeof value === "number"
      ? { name, type: "SCALAR", scalar: { value } }
      : { name, type: "TEXT", text: { value } },
  );
}

/**
 * Parses an agent file: `{ "agents": [AgentSpec & { count?: n }] }` or a bare
 * array of them. `count` repeats an entry; its hostnames get a -<i> suffix.
 */
export function parseAgentFile(json: unknown): AgentSpec[] {
  const list = Array.isArray(json)
    ? json
    : typeof json === "object" &&
        json !== null &&
        Array.isArray((json as { agents?: unknown }).agents)
      ? (json as { agents: unknown[] }).agents
      : undefined;
  if (list === undefined) throw new Error("agent file: expected an array or { agents: [...] }");
  return list.flatMap((entry, i) => {
    const spec = checkSpec(entry, i);
    const count = (entry as { count?: unknown }).count ?? 1;
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1) {
      throw new Error(`agent file: agents[${i}].count must be a positive integer`);
    }
    if (count === 1) return [spec];
    if (spec.id !== undefined) throw new Error(`agent file: agents[${i}] has both id and count`);
    return Array.from({ length: count }, (_, k) => ({
      ...spec,
      ...(spec.hostname !== undefined ? { hostname: `${spec.hostname}-${k + 1}` } : {}),
    }));
  });
}

/**
 * `--agents` of mesos-sim (and PELOTON_SIM_AGENTS of `npm start`): a count
 * (the demo cluster with that many agents) or the path of an agent file.
 */
export function agentsFromArgument(arg: string | undefined): AgentSpec[] {
  if (arg === undefined || arg === "") return demoCluster();
  if (/^\d+$/.test(arg)) return demoCluster({ agents: Number(arg) });
  return parseAgentFile(JSON.parse(readFileSync(arg, "utf8")));
}

function checkSpec(entry: unknown, i: number): AgentSpec {
  const where = `agent file: agents[${i}]`;
  if (typeof entry !== "object" || entry === null) throw new Error(`${where} must be an object`);
  const e = entry as Record<string, unknown>;
  const res = e.resources as Record<string, unknown> | undefined;
  if (typeof res !== "object" || res === null) throw new Error(`${where}.resources is required`);
  for (const key of ["cpus", "mem"]) {
    if (typeof res[key] !== "number") throw new Error(`${where}.resources.${key} must be a number`);
  }
  for (const key of ["disk", "gpus"]) {
    if (res[key] !== undefined && typeof res[key] !== "number") {
      throw new Error(`${where}.resources.${key} must be a number`);
    }
  }
  if (e.attributes !== undefined) {
    const attrs = e.attributes;
    if (typeof attrs !== "object" || attrs === null)
      throw new Error(`${where}.attributes must be an object`);
    for (const [k, v] of Object.entries(attrs)) {
      if (typeof v !== "string" && typeof v !== "number") {
        throw new Error(`${where}.attributes.${k} must be a string or a number`);
      }
    }
  }
  const spec = entry as AgentSpec;
  portRanges(spec.resources.ports);
  return spec;
}

export interface DemoClusterOptions {
  /** Default 8. */
  agents?: number;
  /** Default ["us-east-1a", "us-east-1b"]. */
  zones?: readonly string[];
  /** How many agents have GPUs (the last ones). Default 2 of 8 (a quarter). */
  gpuAgents?: number;
  simulateTasks?: boolean;
}

/**
 * The app's default cluster: agents spread round-robin over zones, two racks
 * per zone, the last ones with 4 GPUs each (8 agents: 2 zones × 4, 2 GPU hosts).
 */
export function demoCluster(opts: DemoClusterOptions = {}): AgentSpec[] {
  const n = opts.agents ?? 8;
  const zones = opts.zones ?? ["us-east-1a", "us-east-1b"];
  const gpuAgents = opts.gpuAgents ?? Math.floor(n / 4);
  return Array.from({ length: n }, (_, i) => {
    const gpu = i >= n - gpuAgents;
    const zone = zones[i % zones.length] ?? "default";
    const spec: AgentSpec = {
      hostname: `${gpu ? "gpu" : "cpu"}-node-${i + 1}.sim.local`,
      resources: {
        cpus: gpu ? 32 : 16,
        mem: gpu ? 131072 : 65536,
        disk: 500_000,
        ...(gpu ? { gpus: 4 } : {}),
        ports: "31000-32000",
      },
      attributes: {
        zone,
        rack: `${zone}-r${(Math.floor(i / zones.length) % 2) + 1}`,
        host_type: gpu ? "gpu" : "cpu",
        ...(gpu ? { gpu_model: "a100" } : {}),
      },
    };
    if (opts.simulateTasks !== undefined) spec.simulateTasks = opts.simulateTasks;
    return spec;
  });
}
