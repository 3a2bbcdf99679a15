/**
 * A run's health, Peloton's task.HealthState: DISABLED when its task has no
 * enabled health check, HEALTH_UNKNOWN until the first check result, then
 * HEALTHY or UNHEALTHY as the cluster reports. Orthogonal to the task state.
 */
export const HEALTH_STATES = ["HEALTH_UNKNOWN", "HEALTHY", "UNHEALTHY", "DISABLED"] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

/** What people read (the CLI's Healthy column, the console). */
export const HEALTH_STATE_LABELS: Readonly<Record<HealthState, string>> = {
  HEALTH_UNKNOWN: "unknown",
  HEALTHY: "healthy",
  UNHEALTHY: "unhealthy",
  DISABLED: "disabled",
};
