/**
 * GetWorkflowEvents: where one instance stands in the job's latest workflow
 * (Peloton reads the job's current update too), from what our update keeps:
 * its instance sets (done, failed, moving now) and its times. Newest first:
 *
 *   instance done / failed          SUCCEEDED / FAILED
 *   moving now                      the workflow's state (ROLLING_FORWARD, PAUSED, …)
 *   left behind by an ended update  the update's final state, at its completion
 *   every instance of the update    INITIALIZED, at the update's creation
 *
 * When an instance started or finished moving is not kept (the update
 * records its own history, not each instance's), so those events carry no
 * timestamp. An instance the workflow does not touch has no events.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { readJob } from "../calls/read-job.ts";
import type { Implementation } from "../calls/registry.ts";
import { invalidArgument } from "../calls/status.ts";
import {
  type WorkflowEventSchema,
  WorkflowState,
} from "../generated/peloton/api/v1alpha/job/stateless/stateless_pb.ts";
import type { JobService } from "../generated/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb.ts";
import { timeText } from "../v0/config.ts";
import { jobIdOf, jobRefField } from "./job-refs.ts";
import { type UpdateView, workflowStateOf, workflowTypeOf } from "./job-spec.ts";
import { latestUpdate } from "./job-workflows.ts";
import { naming } from "./spec-fields.ts";

type WorkflowEvent = MessageInitShape<typeof WorkflowEventSchema>;

const ENDED = new Set(["SUCCEEDED", "ABORTED", "FAILED", "ROLLED_BACK"]);

/** The instance's events in `u`, newest first (none when `u` does not touch it). */
export function instanceWorkflowEvents(u: UpdateView, instance: number): WorkflowEvent[] {
  const touched = u.batches.some((b) => b.instances.includes(instance));
  if (!touched) return [];
  const type = workflowTypeOf(u.kind);
  const event = (state: WorkflowState, at: Date | null = null): WorkflowEvent => ({
    type,
    state,
    timestamp: timeText(at),
  });
  const created = event(WorkflowState.INITIALIZED, u.createdAt);
  if (u.instancesDone.includes(instance)) return [event(WorkflowState.SUCCEEDED), created];
  if (u.instancesFailed.includes(instance)) return [event(WorkflowState.FAILED), created];
  if (u.instancesCurrent.includes(instance)) return [event(workflowStateOf(u.state)), created];
  if (ENDED.has(u.state)) return [event(workflowStateOf(u.state), u.completedAt), created];
  return [created];
}

export const workflowEventHandlers: Implementation<typeof JobService> = {
  async getWorkflowEvents(req, { caller }) {
    const id = jobIdOf(req.jobId);
    const job = await naming(jobRefField, readJob(caller, id));
    const update = await latestUpdate(caller, id);
    if (!update) throw new ConnectError(`jobId.value: job ${id} has no workflow`, Code.NotFound);
    const touched = update.batches.some((b) => b.instances.includes(req.instanceId));
    if (!touched && req.instanceId >= job.instanceCount)
      throw invalidArgument(
        "instanceId",
        `job ${id} has ${job.instanceCount} instances (0 to ${job.instanceCount - 1}), and its workflow touches no instance ${req.instanceId}`,
      );
    const events = instanceWorkflowEvents(update, req.instanceId);
    return { events: req.limit ? events.slice(0, req.limit) : events };
  },
};
