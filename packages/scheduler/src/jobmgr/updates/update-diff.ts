/**
 * What an update to a new config would do, without starting it (Peloton's
 * GetReplaceJobDiff): the same checks on the job and the config as
 * createUpdate, and the same instance sets it would write. Nothing is written.
 */
import { type JobConfig, validateJobConfig } from "@peloton/engine";
import type { StorageGateway } from "@peloton/storage";
import { checkTarget, targetInstanceCount } from "./create-update.ts";
import type { UpdateFailure } from "./failures.ts";
import { type NewUpdateSets, newUpdateSets } from "./update-sets.ts";

export interface UpdateDiffRequest {
  jobId: string;
  /** The new config as parsed and as written. */
  config: { value: JobConfig; yaml: string };
  /** The job's config version the caller saw (checked as createUpdate does). */
  configVersion?: number | undefined;
}

export type UpdateDiffResult =
  | { ok: true; fromVersion: number; sets: NewUpdateSets }
  | { ok: false; failure: UpdateFailure };

export async function diffUpdate(
  gateway: StorageGateway,
  req: UpdateDiffRequest,
): Promise<UpdateDiffResult> {
  const problems = validateJobConfig(req.config.value);
  if (problems.length > 0) return { ok: false, failure: { kind: "invalid_config", problems } };
  const job = await gateway.jobs.getDetail(req.jobId);
  if (job === null) return { ok: false, failure: { kind: "job_not_found", jobId: req.jobId } };
  const refused = checkTarget(job, req);
  if (refused) return { ok: false, failure: refused };
  const request = { kind: "UPDATE" as const, config: req.config };
  const sets = newUpdateSets(
    "UPDATE",
    { config: job.config as JobConfig, instanceCount: job.instanceCount },
    { config: req.config.value, instanceCount: targetInstanceCount(job, request) },
  );
  return { ok: true, fromVersion: job.configVersion, sets };
}
