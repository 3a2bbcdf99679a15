import type { HealthState } from "@peloton/api/schemas";
import { RelativeTime } from "@/components/ui/relative-time";
import { HealthBadge } from "../jobs/health-badge";

/**
 * The current run's health: its state, since when, and what its last check
 * said. DISABLED (no health check) and a run with no result yet say so.
 */
export function HealthLine({
  task,
}: {
  task: { health: HealthState; healthChangedAt: Date | null; healthMessage: string | null };
}) {
  return (
    <span className="flex flex-col gap-0.5">
      <HealthBadge health={task.health} testId="task-health-state" />
      {task.health === "DISABLED" ? (
        <span className="text-xs text-muted">no health check</span>
      ) : task.healthChangedAt ? (
        <span className="text-xs text-muted">
          since <RelativeTime at={task.healthChangedAt} />
          {task.healthMessage && <> · {task.healthMessage}</>}
        </span>
      ) : (
        <span className="text-xs text-muted">no check result yet</span>
      )}
    </span>
  );
}
