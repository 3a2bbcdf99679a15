/**
 * Tasks as Peloton's `task list` and `task get` print them (pkg/cli
 * task_actions.go): one row per instance with its name, state, health,
 * when its run started and how long it has run (or ran), its host, why it
 * is where it is, and how its run ended (Peloton's TerminationStatus).
 */
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import { terminationStatus } from "@peloton/engine";
import { rfc3339 } from "../jobs/job-info.ts";

type TaskRow = inferRouterOutputs<AppRouter>["tasks"]["list"]["items"][number];

export const TASK_LIST_HEADER = [
  "Instance",
  "Name",
  "State",
  "Healthy",
  "Start Time",
  "Run Time",
  "Host",
  "Message",
  "Reason",
  "Termination Status",
] as const;

/** Peloton's run time: hours:minutes:seconds, two digits each (hours may grow past 99). */
export function runTime(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
}

/**
 * Peloton's row: run time from the start to the end of the run, or to `now`
 * while it runs; nothing before it started. Healthy is Peloton's task.HealthState.
 */
export function taskListRow(
  t: Pick<
    TaskRow,
    | "instanceId"
    | "name"
    | "state"
    | "health"
    | "startedAt"
    | "finishedAt"
    | "hostname"
    | "message"
    | "reason"
    | "goalState"
  >,
  now: Date,
): string[] {
  return [
    String(t.instanceId),
    t.name,
    t.state,
    t.health,
    rfc3339(t.startedAt),
    t.startedAt ? runTime((t.finishedAt ?? now).getTime() - t.startedAt.getTime()) : "",
    t.hostname ?? "",
    t.message ?? "",
    t.reason ?? "",
    terminationStatus(t) ?? "",
  ];
}
