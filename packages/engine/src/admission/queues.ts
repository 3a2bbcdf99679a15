import type { AdmissionGang } from "./input.ts";
import { ADMISSION_QUEUES, type AdmissionQueue } from "./reasons.ts";

/**
 * The queue a gang waits in. Peloton moves a gang that does not fit from the
 * pending queue to the first special queue it qualifies for, in this order
 * (resmgr `TryAdmit`); deciding against a snapshot, we put it there at once.
 */
export function queueOf(gang: AdmissionGang): AdmissionQueue {
  if (!gang.preemptible) return "NON_PREEMPTIBLE";
  if (gang.controller) return "CONTROLLER";
  if (gang.revocable) return "REVOCABLE";
  return "PENDING";
}

/** Higher priority first, then earlier arrival, then id: a total order, so every run replays. */
export function queueOrder(a: AdmissionGang, b: AdmissionGang): number {
  return a.priority !== b.priority ? b.priority - a.priority : arrivalOrder(a, b);
}

/** The pool's gangs split into its four queues, each in admission order. */
export function buildQueues(
  gangs: readonly AdmissionGang[],
): Record<AdmissionQueue, AdmissionGang[]> {
  const queues: Record<AdmissionQueue, AdmissionGang[]> = {
    NON_PREEMPTIBLE: [],
    CONTROLLER: [],
    REVOCABLE: [],
    PENDING: [],
  };
  for (const gang of gangs) queues[queueOf(gang)].push(gang);
  for (const q of ADMISSION_QUEUES) queues[q].sort(queueOrder);
  return queues;
}

/** FIFO: earlier arrival first, then id, so equal arrivals still have one order. */
function arrivalOrder(a: AdmissionGang, b: AdmissionGang): number {
  if (a.seq !== b.seq) return a.seq - b.seq;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
