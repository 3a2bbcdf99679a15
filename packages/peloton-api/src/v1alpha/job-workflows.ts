/**
 * A stateless job's workflows are our updates (docs/updates.md): ReplaceJob
 * and PatchJob start one (job-replace.ts), Pause/Resume/AbortJobWorkflow act
 * on the job's latest one, ListJobWorkflows lists them with their events.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Caller } from "../calls/deps.ts";
import { readJob } from "../calls/read-job.ts";
import type { Call, Implementation } from "../calls/registry.ts";
import { unimplemented } from "../calls/status.ts";
import type { WorkflowInfoSchema } from "../generated/peloton/api/v1alpha/job/stateless/stateless_pb.ts";
import type { JobService } from "../generated/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb.ts";
import { timeText } from "../v0/config.ts";
import { currentVersion, jobIdOf, jobRefField } from "./job-refs.ts";
import {
  entityVersion,
  parseEntityVersion,
  type UpdateView,
  workflowStateOf,
  workflowStatus,
  workflowTypeOf,
} from "./job-spec.ts";
import { naming } from "./spec-fields.ts";

/** Events per workflow in ListJobWorkflows (the newest). */
const EVENTS = 100;

/** The job's newest update, if it ever had one. */
export async function latestUpdate(caller: Caller, jobId: string): Promise<UpdateView | null> {
  const page = await caller.updates.list({ jobId, limit: 1 });
  return page.items[0] ?? null;
}

export async function workflowInfo(
  caller: Caller,
  u: UpdateView,
  job: { configVersion: number; version: number },
  withEvents: boolean,
): Promise<MessageInitShape<typeof WorkflowInfoSchema>> {
  const o = u.options;
  const events = withEvents ? (await caller.updates.events({ id: u.id, limit: EVENTS })).items : [];
  return {
    status: workflowStatus(u, job),
    ...(u.kind === "RESTART"
      ? { restartSpec: { batchSize: o.batchSize, inPlace: o.inPlace } }
      : {
          updateSpec: {
            batchSize: o.batchSize,
            rollbackOnFailure: o.rollbackOnFailure,
            maxInstanceRetries: o.maxInstanceAttempts,
            maxTolerableInstanceFailures: o.maxFailureInstances,
            startPaused: o.startPaused,
            inPlace: o.inPlace,
            startPods: o.startTasks,
          },
        }),
    // Oldest first, as Peloton lists a workflow's events.
    events: events
      .slice()
      .reverse()
      .map((e) => ({
        type: workflowTypeOf(u.kind),
        state: workflowStateOf(e.state),
        timestamp: timeText(e.at),
      })),
  };
}

/** The job's latest workflow, after checking the version the client saw. */
async function currentWorkflow(
  caller: Caller,
  req: { jobId?: { value: string } | undefined; version?: { value: string } | undefined },
): Promise<UpdateView> {
  const id = jobIdOf(req.jobId);
  const asked = parseEntityVersion(req.version?.value);
  const job = await naming(jobRefField, readJob(caller, id));
  if (asked && entityVersion(job).value !== entityVersion(asked).value)
    throw new ConnectError(
      `version.value: the job is at ${entityVersion(job).value} now; read it again`,
      Code.Aborted,
    );
  const update = await latestUpdate(caller, id);
  if (!update) throw new ConnectError(`jobId.value: job ${id} has no workflow`, Code.NotFound);
  return update;
}

function workflowAction(action: "pause" | "resume" | "abort") {
  return async (
    req: {
      jobId?: { value: string } | undefined;
      version?: { value: string } | undefined;
      opaqueData?: { data: string } | undefined;
    },
    { caller }: Call,
  ) => {
    if (req.opaqueData?.data)
      throw unimplemented("opaqueData: this scheduler keeps no opaque data with a workflow");
    const update = await currentWorkflow(caller, req);
    await caller.updates[action]({ id: update.id });
    return { version: await currentVersion(caller, update.jobId) };
  };
}

export const jobWorkflowHandlers: Implementation<typeof JobService> = {
  pauseJobWorkflow: workflowAction("pause"),
  resumeJobWorkflow: workflowAction("resume"),
  abortJobWorkflow: workflowAction("abort"),

  /** The job's workflows, newest first, each with its events. */
  async listJobWorkflows(req, { caller }) {
    if (req.instanceEvents)
      throw unimplemented(
        "instanceEvents: per-instance workflow events are not kept; each workflow's own events are listed",
      );
    const id = jobIdOf(req.jobId);
    const job = await naming(jobRefField, readJob(caller, id));
    const page = await caller.updates.list({
      jobId: id,
      limit: Math.min(req.updatesLimit || 20, 200),
    });
    return {
      workflowInfos: await Promise.all(page.items.map((u) => workflowInfo(caller, u, job, true))),
    };
  },
};
