/** Task states whose resources count as allocated (admitted through running, until the kill lands). */
export const ALLOCATING_STATES = [
  "READY",
  "PLACING",
  "PLACED",
  "LAUNCHING",
  "LAUNCHED",
  "STARTING",
  "RUNNING",
  "KILLING",
  "PREEMPTING",
] as const;
