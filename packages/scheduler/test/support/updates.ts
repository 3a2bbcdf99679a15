/** Helpers for the update workflow's integration tests: services, updates, and what their rows say. */
import { type JobConfigInput, jobConfigSchema, type UpdateOptions } from "@peloton/engine";
import type { JobUpdateRecord, StorageGateway } from "@peloton/storage";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { createUpdate } from "../../src/jobmgr/updates/create-update.ts";

export const UPDATE_DEFAULTS: UpdateOptions = {
  batchSize: 1,
  batchPercentage: 0,
  stopBeforeUpdate: false,
  startPaused: false,
  rollbackOnFailure: false,
  maxInstanceAttempts: 0,
  maxFailureInstances: 0,
  inPlace: false,
  startTasks: false,
};

/** A service of `instances` small instances running `command`. */
export function serviceConfig(
  instances: number,
  command: string,
  task: Partial<NonNullable<JobConfigInput["defaultConfig"]>> = {},
): JobConfigInput {
  return {
    name: "web",
    type: "SERVICE",
    instanceCount: instances,
    defaultConfig: {
      resource: { cpuLimit: 0.1, memLimitMb: 32, diskLimitMb: 10 },
      command: { value: command },
      ...task,
    },
  };
}

/** Starts an update of the job to `config` as the API does; returns the update's id. */
export async function startUpdate(
  gateway: StorageGateway,
  jobId: string,
  config: JobConfigInput,
  options: Partial<UpdateOptions>,
): Promise<string> {
  const result = await createUpdate(gateway, {
    jobId,
    kind: "UPDATE",
    config: { value: jobConfigSchema.parse(config), yaml: JSON.stringify(config) },
    options: { ...UPDATE_DEFAULTS, ...options },
    acting: { login: "tester", via: "test" },
  });
  if (!result.ok) throw new Error(`update refused: ${JSON.stringify(result.failure)}`);
  return result.update.id;
}

export async function updateOf(gateway: StorageGateway, id: string): Promise<JobUpdateRecord> {
  const u = await gateway.updates.get(id);
  if (!u) throw new Error(`no update ${id}`);
  return u;
}

export interface InstanceVersionRow {
  instance_id: number;
  state: string;
  config_version: number;
  desired_config_version: number;
  health: string | null;
}

export function instanceVersions(jobId: string): Promise<InstanceVersionRow[]> {
  return directSql<InstanceVersionRow>(
    `SELECT instance_id, state::text, config_version, desired_config_version,
            CASE WHEN health_run_id = run_id THEN health::text END AS health
     FROM tasks WHERE job_id = $1 ORDER BY instance_id`,
    [jobId],
  );
}
