/**
 * A literal, object-per-pool port of Peloton's Go calculator
 * (pkg/resmgr/entitlement/non_revocable.go and revocable.go, with
 * scalar.Resources' Subtract/Min), used only to cross-check the flat-array
 * engine on random trees. Deliberately naive: every round visits every child,
 * maps and objects everywhere. It carries the engine's two documented guards
 * (zero totalShare offers 0; a round handing out nothing ends phase 2) so it
 * terminates where Go would not.
 */
import type { EntitlementInput, ResourceKind, Resources } from "../../src/index.ts";

const EPS = 0.0009;
const KINDS: ResourceKind[] = ["cpu", "gpu", "memory", "disk"];
type R = Resources;

const zero = (): R => ({ cpu: 0, gpu: 0, memory: 0, disk: 0 });
const full = (p: Partial<R> | undefined): R => ({
  cpu: p?.cpu ?? 0,
  gpu: p?.gpu ?? 0,
  memory: p?.memory ?? 0,
  disk: p?.disk ?? 0,
});
const add = (a: R, b: R): R => ({
  cpu: a.cpu + b.cpu,
  gpu: a.gpu + b.gpu,
  memory: a.memory + b.memory,
  disk: a.disk + b.disk,
});
const min = (a: R, b: R): R => ({
  cpu: Math.min(a.cpu, b.cpu),
  gpu: Math.min(a.gpu, b.gpu),
  memory: Math.min(a.memory, b.memory),
  disk: Math.min(a.disk, b.disk),
});
function sub(a: R, b: R): R {
  const out = zero();
  for (const k of KINDS) {
    if (a[k] < b[k]) out[k] = 0;
    else {
      out[k] = a[k] - b[k];
      if (out[k] < EPS) out[k] = 0;
    }
  }
  return out;
}
const isZero = (a: R) => a.cpu === 0 && a.gpu === 0 && a.memory === 0 && a.disk === 0;

interface Node {
  path: string;
  res: Record<ResourceKind, { reservation: number; limit: number; share: number; type: string }>;
  slackLimit: R;
  children: Node[];
  demand: R;
  alloc: R;
  slackDemand: R;
  slackAlloc: R;
  ent: R;
  nonSlack: R;
  slack: R;
}

function node(path: string): Node {
  const d = { reservation: 0, limit: 0, share: 0, type: "ELASTIC" };
  return {
    path,
    res: { cpu: d, gpu: d, memory: d, disk: d },
    slackLimit: zero(),
    children: [],
    demand: zero(),
    alloc: zero(),
    slackDemand: zero(),
    slackAlloc: zero(),
    ent: zero(),
    nonSlack: zero(),
    slack: zero(),
  };
}

function aggregate(n: Node): void {
  if (n.children.length === 0) return;
  let d = zero();
  let a = zero();
  let sd = zero();
  let sa = zero();
  for (const c of n.children) {
    aggregate(c);
    d = add(d, c.demand);
    a = add(a, c.alloc);
    sd = add(sd, c.slackDemand);
    sa = add(sa, c.slackAlloc);
  }
  n.demand = d;
  n.alloc = a;
  n.slackDemand = sd;
  n.slackAlloc = sa;
}

const slackReq = (n: Node) => min(n.slackLimit, add(n.slackAlloc, n.slackDemand));
const nonSlackReq = (n: Node) => add(n.alloc, n.demand);

function rounds(
  children: Node[],
  kind: ResourceKind,
  demands: Map<Node, R>,
  total: number,
  free: number,
  target: (c: Node) => R,
): number {
  const exists = () => [...demands.values()].some((d) => d[kind] > EPS);
  while (free > EPS && exists()) {
    const round = free;
    let handed = 0;
    for (const c of children) {
      if (free < EPS) break;
      const d = demands.get(c)!;
      if (d[kind] < EPS) continue;
      let v = total > 0 ? (c.res[kind].share * round) / total : 0;
      if (v > d[kind]) {
        v = d[kind];
        d[kind] = 0;
      } else d[kind] = d[kind] - v;
      if (free > v) free = free - v;
      else {
        v = free;
        free = 0;
      }
      target(c)[kind] = v + target(c)[kind];
      handed += v;
    }
    if (handed === 0) break;
  }
  return free;
}

function setEntitlement(p: Node): void {
  let ent = { ...p.ent };
  const demands = new Map<Node, R>();
  const total: Record<string, number> = {};
  for (const c of p.children) {
    const demand = min(add(nonSlackReq(c), slackReq(c)), {
      cpu: c.res.cpu.limit,
      gpu: c.res.gpu.limit,
      memory: c.res.memory.limit,
      disk: c.res.disk.limit,
    });
    const assignment = zero();
    for (const k of KINDS) {
      const cfg = c.res[k];
      assignment[k] =
        cfg.type === "STATIC" ? cfg.reservation : Math.min(demand[k], cfg.reservation);
      if (demand[k] > cfg.reservation) {
        total[k] = (total[k] ?? 0) + cfg.share;
        demand[k] = demand[k] - cfg.reservation;
      } else demand[k] = 0;
    }
    ent = sub(ent, assignment);
    c.ent = assignment;
    demands.set(c, demand);
  }
  for (const k of KINDS)
    ent[k] = rounds(p.children, k, demands, total[k] ?? 0, ent[k], (c) => c.ent);
  for (const k of KINDS) {
    if (!(ent[k] > EPS)) continue;
    let s = 0;
    for (const c of p.children) s += c.res[k].share;
    for (const c of p.children) {
      const share = c.res[k].share;
      if (!(share > 0)) continue;
      const v = (share * ent[k]) / s + c.ent[k];
      c.ent[k] = Math.min(v, c.res[k].limit);
    }
  }
  for (const c of p.children) setEntitlement(c);
}

function setSlack(p: Node): void {
  let slackEnt = { ...p.slack };
  const demands = new Map<Node, R>();
  let total = 0;
  for (const c of p.children) {
    demands.set(c, { ...zero(), cpu: c.slackDemand.cpu });
    total += c.res.cpu.share;
    const remaining = sub(c.ent, nonSlackReq(c));
    const assignment = min(remaining, slackReq(c));
    c.nonSlack = isZero(assignment) ? { ...c.ent } : sub(c.ent, assignment);
    assignment.cpu = c.slackAlloc.cpu;
    c.slack = { ...assignment };
    slackEnt = sub(slackEnt, assignment);
  }
  slackEnt.cpu = rounds(p.children, "cpu", demands, total, slackEnt.cpu, (c) => c.slack);
  if (slackEnt.cpu > EPS) {
    for (const c of p.children) {
      const share = c.res.cpu.share;
      if (!(share > 0)) continue;
      c.slack.cpu = (share * slackEnt.cpu) / total + c.slack.cpu;
    }
  }
  for (const c of p.children) setSlack(c);
}

/** path → { entitlement, nonSlack, slack } for every pool and the root. */
export function referenceEntitlement(
  input: EntitlementInput,
): Map<string, { ent: R; nonSlack: R; slack: R }> {
  const root = node("/");
  const byPath = new Map<string, Node>([["/", root]]);
  for (const p of input.pools) {
    const n = node(p.path);
    n.res = { ...p.resources };
    const m = (p.slackLimitMaxPercent ?? 20) / 100;
    n.slackLimit = {
      cpu: 0,
      gpu: p.resources.gpu.reservation * m,
      memory: p.resources.memory.reservation * m,
      disk: p.resources.disk.reservation * m,
    };
    n.demand = full(p.demand);
    n.alloc = full(p.allocation);
    n.slackDemand = full(p.slackDemand);
    n.slackAlloc = full(p.slackAllocation);
    byPath.get(p.path.slice(0, p.path.lastIndexOf("/")) || "/")!.children.push(n);
    byPath.set(p.path, n);
  }
  aggregate(root);
  root.ent = full(input.capacity);
  root.slack = { ...zero(), cpu: input.slackCapacity?.cpu ?? 0 };
  setEntitlement(root);
  setSlack(root);
  const out = new Map<string, { ent: R; nonSlack: R; slack: R }>();
  for (const [path, n] of byPath)
    out.set(path, { ent: n.ent, nonSlack: n.nonSlack, slack: n.slack });
  return out;
}
