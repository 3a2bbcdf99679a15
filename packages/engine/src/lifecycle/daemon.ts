/**
 * A DAEMON job runs one instance on each eligible host (peloton-semantics.md
 * §3; Peloton's job.proto: "one instance running on each host"), so its
 * instance count follows the hosts. Ours: given the hosts that may run it now
 * and the instances it has, which instances to add and which to stop.
 */
export interface DaemonInstance {
  readonly instance: number;
  /** The host the instance is pinned to. */
  readonly host: string;
}

export interface DaemonStop extends DaemonInstance {
  readonly why: "HOST_NOT_ELIGIBLE" | "DUPLICATE_ON_HOST";
}

export interface DaemonPlan {
  /** New instances, one per eligible host without one, hosts in name order. */
  readonly add: readonly DaemonInstance[];
  readonly stop: readonly DaemonStop[];
  readonly keep: readonly DaemonInstance[];
}

/**
 * `existing` are the instances that should be running (goal RUNNING),
 * `firstFree` the lowest instance number never used by this job (numbers of
 * stopped instances are not reused, so their history stays theirs); by
 * default one above the highest existing number. Deterministic: hosts are
 * taken in name order, and a host with two instances keeps the lower one.
 */
export function daemonInstancesFor(
  eligibleHosts: readonly string[],
  existing: readonly DaemonInstance[],
  firstFree?: number,
): DaemonPlan {
  const eligible = new Set(eligibleHosts);
  const byHost = new Map<string, DaemonInstance>();
  const keep: DaemonInstance[] = [];
  const stop: DaemonStop[] = [];
  for (const inst of [...existing].sort((a, b) => a.instance - b.instance)) {
    if (!eligible.has(inst.host)) stop.push({ ...inst, why: "HOST_NOT_ELIGIBLE" });
    else if (byHost.has(inst.host)) stop.push({ ...inst, why: "DUPLICATE_ON_HOST" });
    else {
      byHost.set(inst.host, inst);
      keep.push(inst);
    }
  }
  let next = firstFree ?? existing.reduce((max, i) => Math.max(max, i.instance + 1), 0);
  const add: DaemonInstance[] = [];
  for (const host of [...eligible].sort())
    if (!byHost.has(host)) add.push({ instance: next++, host });
  return { add, stop, keep };
}
