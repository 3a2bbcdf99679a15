/**
 * Updates as Peloton's `update get` and `update list` print them
 * (pkg/cli/update_actions.go): the update id, its state and the three
 * counts, in Peloton's column names; then what Peloton keeps elsewhere and
 * an operator asks next: the kind of workflow, the configuration versions
 * it moves between, who started it and when.
 */
import { rfc3339 } from "../jobs/job-info.ts";

/** What a row needs of the API's UpdateView (docs/updates.md). */
export interface UpdateRowFields {
  id: string;
  kind: string;
  state: string;
  numTasksDone: number;
  numTasksFailed: number;
  numTasksRemaining: number;
  fromVersion: number;
  toVersion: number;
  actor: string | null;
  createdAt: Date;
}

export const UPDATE_LIST_HEADER = [
  "Update-ID",
  "State",
  "NumberTasksCompleted",
  "NumberTasksFailed",
  "NumberTasksRemaining",
  "Kind",
  "Config Version",
  "Started By",
  "Created At",
] as const;

/** "1 -> 2"; a restart keeps its version ("2"). */
export function versionsText(u: Pick<UpdateRowFields, "fromVersion" | "toVersion">): string {
  return u.fromVersion === u.toVersion ? String(u.toVersion) : `${u.fromVersion} -> ${u.toVersion}`;
}

export function updateRow(u: UpdateRowFields): string[] {
  return [
    u.id,
    u.state,
    String(u.numTasksDone),
    String(u.numTasksFailed),
    String(u.numTasksRemaining),
    u.kind,
    versionsText(u),
    u.actor ?? "",
    rfc3339(u.createdAt),
  ];
}

/** Peloton's answer to `update create`. */
export function updateCreated(id: string, overridden: string | null = null): string {
  const created = `Job update ${id} created`;
  return overridden ? `${created}; update ${overridden} aborted (overridden)` : created;
}

type UpdateVerb = "pause" | "resume" | "abort" | "rollback";

const DONE: Record<UpdateVerb, string> = {
  pause: "paused",
  resume: "resumed",
  abort: "aborted",
  rollback: "rolling back",
};

/**
 * What a pause, resume, abort or rollback did (Peloton prints nothing; one
 * line with the state the update is in now tells whether it took).
 */
export function updateActed(
  verb: UpdateVerb,
  u: Pick<UpdateRowFields, "id" | "state" | "fromVersion" | "toVersion">,
): string {
  const to = verb === "rollback" ? ` to configuration version ${u.fromVersion}` : "";
  return `Job update ${u.id} ${DONE[verb]}${to} (state ${u.state})`;
}
