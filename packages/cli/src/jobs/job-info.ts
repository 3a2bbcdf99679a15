/**
 * Jobs as Peloton's CLI prints them: `job get` is its GetResponse (JobInfo:
 * id, config, runtime) and `job status` its RuntimeInfo, both as protobuf
 * JSON names (camelCase, enums by name) in YAML or JSON; `job query` is its
 * summary table (ID, Name, Owner, State, Creation Time, Completion Time,
 * Total, Running, Succeeded, Failed, Killed).
 */
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import { stringify } from "yaml";

type Outputs = inferRouterOutputs<AppRouter>;
type JobDetail = Outputs["jobs"]["get"];
type JobRow = Outputs["jobs"]["list"]["items"][number];

/** RFC 3339 without fractions, as Peloton prints times in tables. */
export function rfc3339(at: Date | null | undefined): string {
  return at ? at.toISOString().replace(/\.\d{3}Z$/, "Z") : "";
}

/** Peloton's job RuntimeInfo. */
export function runtimeInfo(job: JobDetail) {
  return {
    state: job.state,
    creationTime: job.createdAt.toISOString(),
    taskStats: job.taskStats,
    ...(job.completedAt ? { completionTime: job.completedAt.toISOString() } : {}),
    goalState: job.goalState,
    configurationVersion: job.configVersion,
    revision: {
      version: job.version,
      createdAt: job.createdAt.getTime(),
      updatedAt: job.updatedAt.getTime(),
      updatedBy: job.owner,
    },
  };
}

/**
 * Peloton's GetResponse: the job's id, its config as stored (with its pool)
 * and its runtime; and `submittedBy`, ours: the login that submitted it (the
 * config's `owner` is only what the file says).
 */
export function jobGetResponse(job: JobDetail) {
  return {
    jobInfo: {
      id: { value: job.id },
      submittedBy: job.submittedBy,
      config: {
        ...(job.config as Record<string, unknown>),
        respoolID: { value: job.poolPath },
      },
      runtime: runtimeInfo(job),
    },
  };
}

export function formatDocument(value: unknown, json: boolean | undefined): string {
  return json ? JSON.stringify(value, null, 2) : stringify(value).trimEnd();
}

export const JOB_QUERY_HEADER = [
  "ID",
  "Name",
  "Owner",
  "State",
  "Creation Time",
  "Completion Time",
  "Total",
  "Running",
  "Succeeded",
  "Failed",
  "Killed",
] as const;

export function jobQueryRow(j: JobRow): string[] {
  const n = (state: keyof JobRow["taskStats"]) => String(j.taskStats[state] ?? 0);
  return [
    j.id,
    j.name,
    j.owner,
    j.state,
    rfc3339(j.createdAt),
    j.completedAt ? rfc3339(j.completedAt) : "--",
    String(j.instanceCount),
    n("RUNNING"),
    n("SUCCEEDED"),
    n("FAILED"),
    n("KILLED"),
  ];
}
