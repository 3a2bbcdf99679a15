/**
 * Peloton's updates (UpdateConfig, UpdateInfo) over the updates router
 * (docs/updates.md): the one place that starts an update, shared by
 * UpdateService.CreateUpdate and JobManager.Update, and an update as
 * Peloton's UpdateInfo. The workflow, its options' checks and its states
 * are the router's; Peloton's names and states are ours one for one.
 */
import { type MessageInitShape, toJson } from "@bufbuild/protobuf";
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import type { Caller } from "../calls/deps.ts";
import type { FieldNaming } from "../calls/status.ts";
import { type JobConfig, JobConfigSchema } from "../generated/peloton/api/v0/job/job_pb.ts";
import {
  State,
  type UpdateConfig,
  UpdateConfigSchema,
  type UpdateInfoSchema,
} from "../generated/peloton/api/v0/update/update_pb.ts";
import { configYaml } from "./config.ts";

type UpdateView = inferRouterOutputs<AppRouter>["updates"]["get"];
type UpdateOptions = Parameters<Caller["updates"]["create"]>[0]["options"];

/**
 * Peloton's UpdateConfig as the router's options, every field given: a
 * batchSize of 0 reaches the router, which refuses it without a
 * batchPercentage (docs/updates.md, where we differ) rather than taking it
 * as Peloton's "all at once".
 */
function options(config: UpdateConfig): UpdateOptions {
  return toJson(UpdateConfigSchema, config, { alwaysEmitImplicit: true }) as UpdateOptions;
}

/**
 * Starts an update of job `jobId` to `config`. Peloton's client sets the
 * config's `changeLog.version` to the version it read: the router refuses
 * the update when the job moved since (0 or absent: not checked).
 * `override`: the job's active update is aborted (Peloton's UpdateService
 * does so; its CLI asks first unless -o).
 */
export async function startUpdate(
  caller: Caller,
  request: {
    jobId: string;
    config: JobConfig;
    updateConfig?: UpdateConfig | undefined;
    override: boolean;
  },
): Promise<{ updateId: string }> {
  const seen = Number(request.config.changeLog?.version ?? 0n);
  const created = await caller.updates.create({
    jobId: request.jobId,
    yaml: configYaml(JobConfigSchema, request.config),
    // No UpdateConfig (JobManager.Update): the router's defaults, one instance at a time.
    ...(request.updateConfig ? { options: options(request.updateConfig) } : {}),
    override: request.override,
    ...(seen > 0 ? { configVersion: seen } : {}),
  });
  return { updateId: created.updateId };
}

/**
 * How the router's fields of `updates.create` read in a request whose job
 * id is `jobField` and whose job config is `configField` (the config's own
 * fields are named inside it, as the router names them).
 */
export function updateCreateFields(jobField: string, configField: string): FieldNaming {
  return (field) => {
    const [head, ...rest] = field.split(".");
    switch (head) {
      case "jobId":
      case "id":
      case "override": // one active update per job: the job is what is refused
        return jobField;
      case "options":
        return ["updateConfig", ...rest].join(".");
      case "configVersion":
        return `${configField}.changeLog.version`;
      case "yaml":
        return configField;
      default:
        return `${configField}.${field}`;
    }
  };
}

export function updateStateOf(name: string): State {
  return State[name as keyof typeof State] ?? State.INVALID;
}

/** An update as Peloton's UpdateInfo; `statusOnly` leaves its config out, as Peloton does. */
export function updateInfo(
  u: UpdateView,
  statusOnly = false,
): MessageInitShape<typeof UpdateInfoSchema> {
  return {
    updateId: { value: u.id },
    jobId: { value: u.jobId },
    ...(statusOnly ? {} : { config: { ...u.options } }),
    status: {
      state: updateStateOf(u.state),
      numTasksDone: u.numTasksDone,
      numTasksRemaining: u.numTasksRemaining,
      numTasksFailed: u.numTasksFailed,
    },
    configVersion: BigInt(u.toVersion),
    prevConfigVersion: BigInt(u.fromVersion),
  };
}
