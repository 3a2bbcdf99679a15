/**
 * Tasks as Peloton's `task list` and `task get` print them: one row per
 * instance with its task's limits, state, health (Peloton's Healthy column) and goal, when it started, its
 * cluster task id, host, and why it is where it is.
 */
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import { rfc3339 } from "../jobs/job-info.ts";

type TaskRow = inferRouterOutputs<AppRouter>["tasks"]["list"]["items"][number];

export const TASK_LIST_HEADER = [
  "Instance",
  "Job",
  "CPU Limit",
  "Mem Limit",
  "Disk Limit",
  "State",
  "Healthy",
  "GoalState",
  "Started At",
  "Task ID",
  "Host",
  "Message",
  "Reason",
] as const;

/** Peloton's row format: `%d %s %.1f %.0f MB %.0f MB %s %s %s %s %s %s %s %s`; Healthy is Peloton's task.HealthState. */
export function taskListRow(t: TaskRow): string[] {
  return [
    String(t.instanceId),
    t.name,
    t.cpu.toFixed(1),
    `${t.memMb.toFixed(0)} MB`,
    `${t.diskMb.toFixed(0)} MB`,
    t.state,
    t.health,
    t.goalState,
    rfc3339(t.startedAt),
    t.clusterTaskId ?? "",
    t.hostname ?? "",
    t.message ?? "",
    t.reason ?? "",
  ];
}
