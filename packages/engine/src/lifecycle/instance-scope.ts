/**
 * Whether a task action names every instance of its job. Peloton's StopTasks
 * (pkg/jobmgr/tasksvc/handler.go) sets the job's goal state to KILLED when
 * the stop covers all of the job's instances, so that a job stopped task by
 * task is the same as a job stopped as a whole; a stop of a subset leaves the
 * job's goal alone.
 */

/** Instances from..to, both included (the API's shape). */
export interface InclusiveRange {
  readonly from: number;
  readonly to: number;
}

/** "all" (no ranges named) or ranges whose union is exactly 0..instanceCount-1 or more. */
export function coversEveryInstance(
  scope: readonly InclusiveRange[] | "all",
  instanceCount: number,
): boolean {
  if (scope === "all") return true;
  if (instanceCount <= 0) return false;
  const sorted = [...scope].sort((a, b) => a.from - b.from);
  // The next instance not yet covered, walking the ranges in order.
  let next = 0;
  for (const r of sorted) {
    if (r.from > next) return false;
    next = Math.max(next, r.to + 1);
    if (next >= instanceCount) return true;
  }
  return next >= instanceCount;
}
