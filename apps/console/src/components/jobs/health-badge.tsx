import { HEALTH_STATE_LABELS, type HealthState } from "@peloton/api/schemas";
import { healthTone, TONE_DOT } from "@/lib/states";

/** A run's health (Peloton's HealthState) with its colour dot; DISABLED reads quietly. */
export function HealthBadge({
  health,
  testId = "health",
}: {
  health: HealthState;
  testId?: string;
}) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 whitespace-nowrap text-xs ${health === "DISABLED" ? "text-muted" : ""}`}
      data-testid={testId}
      data-health={health}
      title={health}
    >
      <span
        aria-hidden
        className={`size-2 shrink-0 rounded-full ${TONE_DOT[healthTone(health)]}`}
      />
      {HEALTH_STATE_LABELS[health]}
    </span>
  );
}
