/**
 * Why an update request was refused: values the API words for the field and
 * rule (nothing was changed when any of these comes back).
 */
import type { JobConfigProblem, JobType, UpdateState } from "@peloton/engine";
import type { JobUpdateRecord } from "@peloton/storage";

export type UpdateFailure =
  | { kind: "job_not_found"; jobId: string }
  | { kind: "update_not_found"; updateId: string }
  | { kind: "job_deleted"; jobId: string }
  /** Peloton refuses updates of batch jobs. */
  | { kind: "batch_job"; jobId: string }
  | { kind: "type_change"; jobId: string; from: JobType; to: JobType }
  | { kind: "invalid_config"; problems: JobConfigProblem[] }
  | { kind: "invalid_option"; field: string; message: string }
  /** `configVersion` (Peloton's -c) is not the job's current one. */
  | { kind: "version_mismatch"; jobId: string; given: number; current: number }
  /** One active update per job: this one is in the way (Peloton's -o overrides it). */
  | { kind: "active_update"; jobId: string; updateId: string; state: UpdateState }
  /** Pause, resume, abort, rollback of an update that is no longer active. */
  | { kind: "finished"; updateId: string; state: UpdateState; action: string }
  /** The action does not apply in this state (resume of one not paused, ...). */
  | { kind: "wrong_state"; updateId: string; state: UpdateState; action: string }
  /** A restart, start or stop has no earlier version to go back to. */
  | { kind: "not_rollbackable"; updateId: string }
  /** Someone else changed the update in between: reload and try again. */
  | { kind: "conflict"; updateId: string };

export type UpdateResult =
  /** `overridden`: the active update an override (-o) aborted for it. */
  | { ok: true; update: JobUpdateRecord; overridden?: string }
  | { ok: false; failure: UpdateFailure };

export const refuse = (failure: UpdateFailure): UpdateResult => ({ ok: false, failure });
