/**
 * What the host manager records about hosts, from the two places Mesos
 * tells it: the operator API's agent list (total resources, attributes;
 * Peloton loads its host map the same way) and offers (the agent's own URL,
 * where its sandboxes are read).
 */
import type { Attribute, OperatorAgent, Range, Resource, URL } from "@peloton/mesos";
import type { ClusterHost } from "@peloton/storage";
import type { PortRange, Resources } from "../host-adapter.ts";

/** Scalar totals in the scheduler's units, revocable resources left out. */
export function resourcesOf(resources: readonly Resource[] = []): Resources {
  const out: Resources = { cpu: 0, memMb: 0, diskMb: 0, gpu: 0 };
  for (const r of resources) {
    if (r.type !== "SCALAR" || r.revocable !== undefined) continue;
    const v = r.scalar?.value ?? 0;
    if (r.name === "cpus") out.cpu += v;
    else if (r.name === "mem") out.memMb += v;
    else if (r.name === "disk" && r.disk?.persistence === undefined) out.diskMb += v;
    else if (r.name === "gpus") out.gpu += v;
  }
  return out;
}

export function portsOf(resources: readonly Resource[] = []): PortRange[] {
  return resources
    .filter((r) => r.name === "ports" && r.type === "RANGES")
    .flatMap((r) => (r.ranges?.range ?? []).map((x: Range) => ({ begin: x.begin, end: x.end })));
}

/** Attributes as text: `{zone: "us-east-1a", rack: "7"}`. */
export function attributesOf(attributes: readonly Attribute[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of attributes) {
    if (a.type === "TEXT" && a.text) out[a.name] = a.text.value;
    else if (a.type === "SCALAR" && a.scalar) out[a.name] = String(a.scalar.value);
    else if (a.type === "SET" && a.set) out[a.name] = (a.set.item ?? []).join(",");
    else if (a.type === "RANGES" && a.ranges) {
      out[a.name] = (a.ranges.range ?? []).map((x) => `${x.begin}-${x.end}`).join(",");
    }
  }
  return out;
}

/** "http://10.0.1.21:5051/slave(1)" from an offer's URL. */
export function agentUrlString(url: URL | undefined): string | null {
  if (url === undefined) return null;
  const host = url.address.ip ?? url.address.hostname;
  if (host === undefined) return null;
  return `${url.scheme || "http"}://${host}:${url.address.port}${url.path ?? ""}`;
}

/** The URL form readSandboxFile takes, back from the recorded string. */
export function agentUrlFromString(text: string): URL {
  const u = new globalThis.URL(text);
  return {
    scheme: u.protocol.replace(/:$/, ""),
    address: { ip: u.hostname, port: Number(u.port || 80) },
    path: decodeURIComponent(u.pathname),
  };
}

export function clusterHostOf(agent: OperatorAgent, agentUrl: string | null): ClusterHost | null {
  const id = agent.agent_info.id?.value;
  if (id === undefined) return null;
  const total = resourcesOf(agent.total_resources ?? agent.agent_info.resources);
  return {
    hostname: agent.agent_info.hostname,
    agentId: id,
    agentUrl,
    attributes: attributesOf(agent.agent_info.attributes),
    ...total,
    ports: portsOf(agent.total_resources ?? agent.agent_info.resources).map(
      (p) => [p.begin, p.end] as [number, number],
    ),
  };
}
