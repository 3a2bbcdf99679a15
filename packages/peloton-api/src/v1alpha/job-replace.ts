/**
 * A stateless job's new spec, through our update workflow (docs/updates.md):
 * ReplaceJob starts an update to the whole spec, PatchJob to the current
 * spec with the given fields merged over it (job-patch.ts), and
 * GetReplaceJobDiff answers which instances such an update would add,
 * restart, remove and leave running, from the router's `updates.diff` (the
 * same checks and instance sets as `updates.create`, nothing started).
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import type { Caller } from "../calls/deps.ts";
import { readJob } from "../calls/read-job.ts";
import type { Implementation } from "../calls/registry.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import { JobConfigSchema } from "../generated/peloton/api/v0/job/job_pb.ts";
import {
  type JobSpec,
  JobSpecSchema,
  type UpdateSpec,
} from "../generated/peloton/api/v1alpha/job/stateless/stateless_pb.ts";
import type { JobService } from "../generated/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb.ts";
import type { InstanceIDRangeSchema } from "../generated/peloton/api/v1alpha/pod/pod_pb.ts";
import { configYaml } from "../v0/config.ts";
import { patchedSpec } from "./job-patch.ts";
import { currentVersion, jobIdOf, jobRefField } from "./job-refs.ts";
import { jobConfigOf, jobSpecOf, parseEntityVersion } from "./job-spec.ts";
import { naming, specField } from "./spec-fields.ts";

/** Our update options as Peloton's UpdateSpec names them. */
const UPDATE_SPEC_FIELD: Record<string, string> = {
  batchSize: "batchSize",
  batchPercentage: "batchSize",
  maxInstanceAttempts: "maxInstanceRetries",
  maxFailureInstances: "maxTolerableInstanceFailures",
  startTasks: "startPods",
};

function replaceField(field: string): string {
  if (field.startsWith("options.")) {
    const name = field.slice("options.".length);
    return `updateSpec.${UPDATE_SPEC_FIELD[name] ?? name}`;
  }
  if (field === "configVersion") return "version.value";
  if (field === "jobId") return "jobId.value";
  return `spec.${specField(field)}`;
}

/** Peloton's UpdateSpec as our update options; batch size 0 is Peloton's "all at once". */
function updateOptions(spec: UpdateSpec | undefined) {
  return {
    ...(spec?.batchSize ? { batchSize: spec.batchSize } : { batchSize: 0, batchPercentage: 100 }),
    rollbackOnFailure: spec?.rollbackOnFailure ?? false,
    maxInstanceAttempts: spec?.maxInstanceRetries ?? 0,
    maxFailureInstances: spec?.maxTolerableInstanceFailures ?? 0,
    startPaused: spec?.startPaused ?? false,
    inPlace: spec?.inPlace ?? false,
    startTasks: spec?.startPods ?? false,
  };
}

interface ReplaceRequest {
  jobId?: { value: string } | undefined;
  version?: { value: string } | undefined;
  secrets: readonly unknown[];
  opaqueData?: { data: string } | undefined;
  updateSpec?: UpdateSpec | undefined;
}

/** What ReplaceJob and PatchJob refuse alike, before anything is read. */
function refuseUnsupported(req: ReplaceRequest): void {
  if (req.secrets.length)
    throw unimplemented("secrets: job secrets are not supported by this scheduler yet");
  if (req.opaqueData?.data)
    throw unimplemented("opaqueData: this scheduler keeps no opaque data with a workflow");
}

/**
 * A rolling update of job `id` to `spec`. The config version checked is the
 * request's, else `base` (the version a patch was merged over, so a change
 * made meanwhile is not overwritten), else none.
 */
async function replaceWith(caller: Caller, req: ReplaceRequest, spec: JobSpec, base?: number) {
  const id = jobIdOf(req.jobId);
  const configVersion = parseEntityVersion(req.version?.value)?.configVersion ?? base;
  const yaml = configYaml(JobConfigSchema, jobConfigOf(spec, "spec"));
  await naming(
    replaceField,
    caller.updates.create({
      jobId: id,
      yaml,
      options: updateOptions(req.updateSpec),
      ...(configVersion !== undefined ? { configVersion } : {}),
    }),
  );
  return { version: await currentVersion(caller, id) };
}

/** Sorted instance ids as Peloton's ranges, each [from, to). */
function ranges(instances: readonly number[]): MessageInitShape<typeof InstanceIDRangeSchema>[] {
  const out: { from: number; to: number }[] = [];
  for (const i of [...instances].sort((a, b) => a - b)) {
    const last = out.at(-1);
    if (last && last.to === i) last.to = i + 1;
    else out.push({ from: i, to: i + 1 });
  }
  return out;
}

export const jobReplaceHandlers: Implementation<typeof JobService> = {
  /** A rolling update to the new spec (`peloton update create`). */
  async replaceJob(req, { caller }) {
    refuseUnsupported(req);
    if (!req.spec) throw invalidArgument("spec", "a replacement needs the job's new spec");
    return replaceWith(caller, req, req.spec);
  },

  /** The given fields merged over the job's current spec, then as ReplaceJob. */
  async patchJob(req, { caller }) {
    refuseUnsupported(req);
    if (!req.spec) throw invalidArgument("spec", "a patch needs the fields to change");
    const id = jobIdOf(req.jobId);
    const job = await naming(jobRefField, readJob(caller, id));
    const current = create(JobSpecSchema, jobSpecOf(job.config, job));
    const merged = patchedSpec(current, req.spec, job.config, "spec");
    return replaceWith(caller, req, merged, job.configVersion);
  },

  /** The instances ReplaceJob with this spec would add, remove, restart and leave running. */
  async getReplaceJobDiff(req, { caller }) {
    if (!req.spec) throw invalidArgument("spec", "name the spec to compare with the job's");
    const id = jobIdOf(req.jobId);
    const asked = parseEntityVersion(req.version?.value);
    const yaml = configYaml(JobConfigSchema, jobConfigOf(req.spec, "spec"));
    const diff = await naming(
      replaceField,
      caller.updates.diff({
        jobId: id,
        yaml,
        ...(asked ? { configVersion: asked.configVersion } : {}),
      }),
    );
    return {
      instancesAdded: ranges(diff.added),
      instancesRemoved: ranges(diff.removed),
      instancesUpdated: ranges(diff.updated),
      instancesUnchanged: ranges(diff.unchanged),
    };
  },
};
