/**
 * Which tasks leave a host in maintenance now (Peloton's host drainer and
 * its task eviction queue, decided here as one pure plan). Every task on
 * the host is evicted (killed with reason HOST_MAINTENANCE, its next run
 * placed elsewhere, not a failure), but a RUNNING one only while its job
 * stays within `sla.maximumUnavailableInstances` (0 = no limit): the
 * instances of the job unavailable now, plus those this plan takes, never
 * exceed it. A task that is not RUNNING makes nothing less available, so it
 * goes at once. What has to wait says which job's SLA it waits on: that is
 * what the host page's eviction progress shows.
 */
import type { TaskState } from "../vocabulary/task-states.ts";

/** The kill reason of an evicted run, and of its end (Peloton's HOST_MAINTENANCE). */
export const HOST_MAINTENANCE_REASON = "HOST_MAINTENANCE";

export interface EvictionCandidate {
  readonly taskId: string;
  readonly jobId: string;
  readonly jobName: string;
  readonly instanceId: number;
  readonly state: TaskState;
  /** Already asked to leave (being replaced, or stopping for good): nothing to ask. */
  readonly leaving: boolean;
  /** The job's SLA limit; 0 = no limit. */
  readonly maximumUnavailableInstances: number;
  /** The job's instances unavailable now (not RUNNING, or being replaced). */
  readonly unavailableInstances: number;
}

/** A job whose RUNNING tasks on the host wait for instances to come back. */
export interface EvictionWait {
  readonly jobId: string;
  readonly jobName: string;
  /** Its tasks on the host that wait. */
  readonly waiting: number;
  readonly unavailableInstances: number;
  readonly maximumUnavailableInstances: number;
  /** Sentence for the UI/CLI: why these tasks have not been evicted yet. */
  readonly reason: string;
}

export interface EvictionPlan {
  /** Ask these tasks to leave now. */
  readonly evict: readonly string[];
  /** Tasks already on their way out (asked before, or stopping). */
  readonly leaving: number;
  /** Grouped by job, in the order of the candidates. */
  readonly waits: readonly EvictionWait[];
}

export function describeEvictionWait(w: {
  jobName: string;
  waiting: number;
  unavailableInstances: number;
  maximumUnavailableInstances: number;
}): string {
  const tasks = `${w.waiting} task${w.waiting === 1 ? "" : "s"}`;
  return (
    `${tasks} of ${w.jobName} wait: ${w.unavailableInstances} of its instances ` +
    `${w.unavailableInstances === 1 ? "is" : "are"} unavailable and its SLA allows ` +
    `${w.maximumUnavailableInstances} (sla.maximumUnavailableInstances); ` +
    "evictions continue as instances come back RUNNING elsewhere"
  );
}

export function planEvictions(candidates: readonly EvictionCandidate[]): EvictionPlan {
  const evict: string[] = [];
  let leaving = 0;
  /** Instances of each job this plan makes unavailable. */
  const taken = new Map<string, number>();
  const waiting = new Map<string, { first: EvictionCandidate; count: number }>();
  for (const c of candidates) {
    if (c.leaving) {
      leaving++;
      continue;
    }
    if (c.state !== "RUNNING" || c.maximumUnavailableInstances <= 0) {
      evict.push(c.taskId);
      continue;
    }
    const already = taken.get(c.jobId) ?? 0;
    if (c.unavailableInstances + already + 1 <= c.maximumUnavailableInstances) {
      taken.set(c.jobId, already + 1);
      evict.push(c.taskId);
      continue;
    }
    const w = waiting.get(c.jobId);
    if (w) w.count++;
    else waiting.set(c.jobId, { first: c, count: 1 });
  }
  const waits = [...waiting.values()].map(({ first, count }) => {
    const unavailableInstances = first.unavailableInstances + (taken.get(first.jobId) ?? 0);
    const w = {
      jobId: first.jobId,
      jobName: first.jobName,
      waiting: count,
      unavailableInstances,
      maximumUnavailableInstances: first.maximumUnavailableInstances,
    };
    return { ...w, reason: describeEvictionWait(w) };
  });
  return { evict, leaving, waits };
}

/** The message of an eviction's kill, and of the task while it is killed (`by`: "maintenance of host h1"). */
export function describeEvictionKill(by: string | null): string {
  return `evicted for ${by ?? "host maintenance"}: stopping this run so the next one is placed elsewhere`;
}

/** The message an evicted run ends with. */
export function describeEvictedRun(by: string | null): string {
  return `evicted for ${by ?? "host maintenance"}: replaced by a new run elsewhere (not a failure)`;
}
