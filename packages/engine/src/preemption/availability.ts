/**
 * Services keep their SLA while being preempted (ours, after Peloton's
 * `maximumUnavailableInstances`): a job's instances unavailable at once —
 * already down plus chosen as victims now — never exceed its maximum. Only a
 * RUNNING victim makes one more instance unavailable; a READY or PLACING one
 * was not running anyway.
 */
import type { JobAvailability, PreemptionTask } from "./input.ts";

export class AvailabilityBudget {
  private readonly taken = new Map<string, number>();

  constructor(private readonly jobs: Readonly<Record<string, JobAvailability>>) {}

  /** Taking the task keeps its job within `maximumUnavailableInstances`. */
  allows(t: PreemptionTask): boolean {
    if (t.state !== "RUNNING") return true;
    const job = Object.hasOwn(this.jobs, t.jobId) ? this.jobs[t.jobId] : undefined;
    const max = job?.maximumUnavailableInstances;
    if (job === undefined || max === undefined) return true;
    return job.unavailableInstances + (this.taken.get(t.jobId) ?? 0) + 1 <= max;
  }

  take(t: PreemptionTask): void {
    if (t.state === "RUNNING") this.taken.set(t.jobId, (this.taken.get(t.jobId) ?? 0) + 1);
  }

  /** Give back a take (an intra-pool choice that did not go ahead). */
  release(t: PreemptionTask): void {
    if (t.state === "RUNNING") this.taken.set(t.jobId, (this.taken.get(t.jobId) ?? 1) - 1);
  }
}
