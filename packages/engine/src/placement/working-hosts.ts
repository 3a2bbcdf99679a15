/**
 * The batch's copy of the host snapshot (STYLE.md §5: decide against a
 * snapshot). Hosts sit in hostname order — the scan order and the tie-break —
 * with free and total resources in flat arrays. Placing a task changes the
 * copy (free resources, ports, label and job counts) so the next task of the
 * batch sees it; a gang that does not fit is undone exactly. The input is
 * never touched.
 */
import { HOSTNAME_ATTRIBUTE } from "../constraints/attributes.ts";
import type { Label, LabelConstraintKind } from "../constraints/constraint.ts";
import type { LabelCounts } from "../constraints/evaluate.ts";
import { KIND_COUNT, RESOURCE_KINDS } from "../resources/kinds.ts";
import { subtractAmount } from "../resources/resources.ts";
import type { PlacementHost, PlacementTask, PortRange } from "./input.ts";
import { lowestFreePorts, normalizePortRanges, portCount, removePorts } from "./ports.ts";

/** What one placement changed on its host, to undo it exactly. */
export interface Commit {
  readonly task: PlacementTask;
  readonly host: number;
  readonly freeBefore: readonly number[];
  readonly portsBefore: readonly PortRange[];
  readonly staticPorts: readonly number[];
  readonly dynamicPorts: readonly number[];
}

function bump<K>(map: Map<K, number>, key: K, by: number): void {
  const n = (map.get(key) ?? 0) + by;
  if (n === 0) map.delete(key);
  else map.set(key, n);
}

export class WorkingHosts implements LabelCounts {
  readonly size: number;
  /** In hostname order. */
  readonly hosts: readonly PlacementHost[];
  readonly indexOf: ReadonlyMap<string, number>;
  /** `[host * KIND_COUNT + kind]`. */
  readonly free: Float64Array;
  readonly total: Float64Array;
  /** Normalized free port ranges; replaced (never edited) when ports are taken. */
  readonly ports: (readonly PortRange[])[];
  readonly freePortCount: Int32Array;
  /** Index of the host's spread-attribute value, -1 without one. */
  readonly domainOf: Int32Array;
  readonly domainCount: number;
  /**
   * Hosts in the order they changed (a placement or an undo): a remembered
   * failure replays what changed since instead of scanning again.
   */
  readonly changes: number[] = [];

  /** Labels added by this batch's placements, per host: key → value → count. */
  private readonly labelsAdded: (Map<string, Map<string, number>> | undefined)[];
  /** Job id → host index → its tasks there (the snapshot's and this batch's). */
  private readonly jobHosts = new Map<string, Map<number, number>>();
  /** Job id → its tasks per spread domain (the snapshot's and this batch's). */
  private readonly jobDomains = new Map<string, Int32Array>();
  /** The host `count` answers for (LabelCounts): set before each evaluation. */
  private at = 0;

  constructor(input: readonly PlacementHost[], spreadAttribute: string) {
    const hosts = [...input].sort((a, b) =>
      a.hostname < b.hostname ? -1 : a.hostname > b.hostname ? 1 : 0,
    );
    const n = hosts.length;
    this.size = n;
    this.hosts = hosts;
    this.free = new Float64Array(n * KIND_COUNT);
    this.total = new Float64Array(n * KIND_COUNT);
    this.ports = new Array(n);
    this.freePortCount = new Int32Array(n);
    this.domainOf = new Int32Array(n);
    this.labelsAdded = new Array(n).fill(undefined);
    const indexOf = new Map<string, number>();
    const domains = new Map<string, number>();
    for (let h = 0; h < n; h++) {
      const host = hosts[h]!;
      indexOf.set(host.hostname, h);
      for (let k = 0; k < KIND_COUNT; k++) {
        this.free[h * KIND_COUNT + k] = host.free[RESOURCE_KINDS[k]!];
        this.total[h * KIND_COUNT + k] = host.total[RESOURCE_KINDS[k]!];
      }
      const ranges = normalizePortRanges(host.freePorts);
      this.ports[h] = ranges;
      this.freePortCount[h] = portCount(ranges);
      const value = Object.hasOwn(host.attributes, spreadAttribute)
        ? host.attributes[spreadAttribute]!
        : undefined;
      let d = -1;
      if (value !== undefined) {
        d = domains.get(value) ?? domains.size;
        domains.set(value, d);
      }
      this.domainOf[h] = d;
    }
    this.indexOf = indexOf;
    this.domainCount = domains.size;
    for (let h = 0; h < n; h++) {
      const jobTasks = hosts[h]!.jobTasks;
      for (const job in jobTasks) {
        if (Object.hasOwn(jobTasks, job)) this.addJobTasks(job, h, jobTasks[job]!);
      }
    }
  }

  /** Point `count` at a host. */
  focus(h: number): this {
    this.at = h;
    return this;
  }

  /** LabelCounts, for the host in focus. */
  count(kind: LabelConstraintKind, label: Label): number {
    const host = this.hosts[this.at]!;
    if (kind === "HOST") {
      const attrs = host.attributes;
      const value = Object.hasOwn(attrs, label.key)
        ? attrs[label.key]
        : label.key === HOSTNAME_ATTRIBUTE
          ? host.hostname
          : undefined;
      return value === label.value ? 1 : 0;
    }
    const values = Object.hasOwn(host.taskLabels, label.key)
      ? host.taskLabels[label.key]!
      : undefined;
    const base = values && Object.hasOwn(values, label.value) ? values[label.value]! : 0;
    const added = this.labelsAdded[this.at]?.get(label.key)?.get(label.value) ?? 0;
    return base + added;
  }

  /** The job's tasks per host index (absent: none); look it up once per task. */
  jobTasksByHost(jobId: string): ReadonlyMap<number, number> | undefined {
    return this.jobHosts.get(jobId);
  }

  /** The job's tasks per spread domain (index: `domainOf`); absent: none anywhere. */
  jobTasksByDomain(jobId: string): Int32Array | undefined {
    return this.jobDomains.get(jobId);
  }

  /** Place `task` on host `h`: take its resources and ports, count its labels and job. */
  commit(task: PlacementTask, h: number): Commit {
    const base = h * KIND_COUNT;
    const freeBefore: number[] = [];
    for (let k = 0; k < KIND_COUNT; k++) {
      freeBefore.push(this.free[base + k]!);
      this.free[base + k] = subtractAmount(
        this.free[base + k]!,
        task.resources[RESOURCE_KINDS[k]!],
      );
    }
    const portsBefore = this.ports[h]!;
    const staticPorts = task.ports.static;
    const dynamicPorts =
      task.ports.dynamic > 0 ? lowestFreePorts(portsBefore, task.ports.dynamic, staticPorts) : [];
    if (staticPorts.length > 0 || dynamicPorts.length > 0) {
      this.ports[h] = removePorts(portsBefore, [...staticPorts, ...dynamicPorts]);
      this.freePortCount[h]! -= staticPorts.length + dynamicPorts.length;
    }
    this.recount(task, h, 1);
    this.changes.push(h);
    return { task, host: h, freeBefore, portsBefore, staticPorts, dynamicPorts };
  }

  /** Undo a commit (gangs undo theirs in reverse order). */
  undo(c: Commit): void {
    const base = c.host * KIND_COUNT;
    for (let k = 0; k < KIND_COUNT; k++) this.free[base + k] = c.freeBefore[k]!;
    this.ports[c.host] = c.portsBefore;
    this.freePortCount[c.host]! += c.staticPorts.length + c.dynamicPorts.length;
    this.recount(c.task, c.host, -1);
    this.changes.push(c.host);
  }

  private recount(task: PlacementTask, h: number, by: number): void {
    if (task.labels.length > 0) {
      let labels = this.labelsAdded[h];
      if (!labels) {
        labels = new Map();
        this.labelsAdded[h] = labels;
      }
      for (const l of task.labels) {
        let values = labels.get(l.key);
        if (!values) {
          values = new Map();
          labels.set(l.key, values);
        }
        bump(values, l.value, by);
      }
    }
    this.addJobTasks(task.jobId, h, by);
  }

  private addJobTasks(jobId: string, h: number, by: number): void {
    let hosts = this.jobHosts.get(jobId);
    let domains = this.jobDomains.get(jobId);
    if (!hosts || !domains) {
      hosts = new Map();
      domains = new Int32Array(this.domainCount);
      this.jobHosts.set(jobId, hosts);
      this.jobDomains.set(jobId, domains);
    }
    bump(hosts, h, by);
    const d = this.domainOf[h]!;
    if (d >= 0) domains[d]! += by;
  }
}
