/** The sentences an update's history shows for its steps (the reason is the code beside them). */
import type { UpdateStepReason } from "./planner.ts";

export interface StepFacts {
  reason: UpdateStepReason;
  started: readonly number[];
  done: number;
  failed: number;
  total: number;
  maxFailureInstances: number;
}

export function describeUpdateStep(f: StepFacts): string {
  const progress = `${f.done} of ${f.total} instances done, ${f.failed} failed`;
  switch (f.reason) {
    case "STARTED":
      return `update started; moving instances ${listed(f.started)}`;
    case "STARTED_PAUSED":
      return "update created paused (startPaused): resume it to start";
    case "BATCH_STARTED":
      return `moving instances ${listed(f.started)}; ${progress}`;
    case "PROGRESS":
    case "WAITING":
    case "PAUSED":
      return progress;
    case "ALL_DONE":
      return `every instance moved: ${progress}`;
    case "TOO_MANY_FAILURES":
      return `${f.failed} instances failed, reaching maxFailureInstances ${f.maxFailureInstances}; the update failed`;
    case "ROLLBACK_ON_FAILURE":
      return `${f.failed} instances failed, reaching maxFailureInstances ${f.maxFailureInstances}; rolling back (rollbackOnFailure)`;
  }
}

/** "3, 4, 5" (the first ten, then how many more). */
function listed(instances: readonly number[]): string {
  if (instances.length <= 10) return instances.join(", ");
  return `${instances.slice(0, 10).join(", ")} and ${instances.length - 10} more`;
}
