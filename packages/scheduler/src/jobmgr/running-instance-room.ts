/**
 * Room under each job's `sla.maximumRunningInstances` for one round of
 * goal-state decisions: how many more of its instances may be queued for
 * admission, from the count of those already scheduled (Peloton's
 * `JobEvaluateMaxRunningInstancesSLA`). Jobs without the limit always have room.
 */
import {
  describeMaxRunningHold,
  instancesToStart,
  type JobConfig,
  MAX_RUNNING_INSTANCES_REASON,
} from "@peloton/engine";
import type { StorageGateway, TaskRunRow } from "@peloton/storage";
import type { QueueHold } from "./goal-state.ts";

export class RunningInstanceRoom {
  private constructor(
    private readonly limits: ReadonlyMap<string, number>,
    private readonly left: Map<string, number>,
  ) {}

  /** The room of the limited jobs among these rows' jobs. */
  static async of(
    gateway: Pick<StorageGateway, "taskRuns">,
    configs: ReadonlyMap<string, JobConfig>,
    rows: Iterable<TaskRunRow>,
  ): Promise<RunningInstanceRoom> {
    const limits = new Map<string, number>();
    for (const row of rows) {
      const max = configs.get(row.jobId)?.sla.maximumRunningInstances ?? 0;
      if (max > 0) limits.set(row.jobId, max);
    }
    const scheduled = await gateway.taskRuns.scheduledCounts([...limits.keys()]);
    const left = new Map(
      [...limits].map(([id, max]) => [id, instancesToStart(max, scheduled.get(id) ?? 0)]),
    );
    return new RunningInstanceRoom(limits, left);
  }

  /** Takes one place for an instance of this job; false when the job has none left. */
  take(jobId: string): boolean {
    const n = this.left.get(jobId);
    if (n === undefined) return true;
    if (n <= 0) return false;
    this.left.set(jobId, n - 1);
    return true;
  }

  /** Why an instance of this job waits (null for a job without the limit). */
  holdFor(jobId: string): QueueHold | null {
    const max = this.limits.get(jobId);
    return max === undefined
      ? null
      : { reason: MAX_RUNNING_INSTANCES_REASON, message: describeMaxRunningHold(max) };
  }
}
