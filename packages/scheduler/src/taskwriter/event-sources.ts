/**
 * Who wrote a task event (task_events.source): the component whose decision
 * moved the task, so a timeline reads "admitted by the resource manager,
 * placed by placement, RUNNING reported by the host manager".
 */
export const EVENT_SOURCES = {
  jobManager: "JOB_MANAGER",
  resourceManager: "RESOURCE_MANAGER",
  placement: "PLACEMENT",
  hostManager: "HOST_MANAGER",
  preemptor: "PREEMPTOR",
  user: "USER",
} as const;
export type EventSource = (typeof EVENT_SOURCES)[keyof typeof EVENT_SOURCES];
