/**
 * A stateless job's pods: ListPods streams them a page per answer,
 * QueryPods filters them by state, name and host, as `peloton task list`
 * and `task query` do.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { type JobConfig, TASK_STATES, type TaskState, taskConfigFor } from "@peloton/engine";
import { collect, pages } from "../calls/pages.ts";
import { readJob } from "../calls/read-job.ts";
import type { Implementation } from "../calls/registry.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import { TaskConfigSchema } from "../generated/peloton/api/v0/task/task_pb.ts";
import type { JobService } from "../generated/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb.ts";
import { type PodInfoSchema, PodState } from "../generated/peloton/api/v1alpha/pod/pod_pb.ts";
import { pelotonMessage } from "../v0/config.ts";
import { routerSort, TASK_SORTS } from "../v0/order-by.ts";
import { jobIdOf, jobRefField } from "./job-refs.ts";
import { podSpecOf } from "./pod-spec.ts";
import { parsePodName, podName, podStatus, podSummary } from "./pods.ts";
import { naming } from "./spec-fields.ts";

/** Tasks per read of the router's list (its maximum). */
const PAGE = 1000;

function ourStates(states: readonly PodState[]): TaskState[] {
  return states
    .map((s) => PodState[s])
    .filter((n): n is TaskState => (TASK_STATES as readonly string[]).includes(n ?? ""));
}

function taskField(field: string): string {
  return field === "jobId" ? "jobId.value" : jobRefField(field);
}

export const jobPodHandlers: Implementation<typeof JobService> = {
  /** The job's pods (those of `range`, Peloton's [from, to), when given), a page per answer. */
  async *listPods(req, { caller }) {
    const range = req.range;
    if (range && range.to <= range.from && (range.from || range.to))
      throw invalidArgument(
        "range",
        `a range runs from 'from' up to, not including, 'to' (got ${range.from} to ${range.to})`,
      );
    const bounds =
      range && range.to > range.from ? { instanceFrom: range.from, instanceTo: range.to - 1 } : {};
    const id = jobIdOf(req.jobId);
    const read = (cursor: string | null) =>
      naming(taskField, caller.tasks.list({ jobId: id, ...bounds, limit: PAGE, cursor }));
    for await (const tasks of pages(read)) yield { pods: tasks.map(podSummary) };
  },

  async queryPods(req, { caller }) {
    const spec = req.spec;
    if ((spec?.hosts.length ?? 0) > 1)
      throw unimplemented("spec.hosts: one host at a time is supported");
    const pagination = req.pagination ?? spec?.pagination;
    if (pagination?.offset)
      throw unimplemented("pagination.offset: this scheduler pages with cursors; use limit");
    const id = jobIdOf(req.jobId);
    const names = new Set(
      (spec?.names ?? []).map((n, i) => {
        const pod = parsePodName(n.value, `spec.names[${i}].value`);
        if (pod.jobId !== id)
          throw invalidArgument(`spec.names[${i}].value`, `${n.value} is not a pod of job ${id}`);
        return podName(pod.jobId, pod.instance);
      }),
    );
    const sorted = routerSort(req, TASK_SORTS);
    const job = await naming(jobRefField, readJob(caller, id));
    const limit = pagination?.limit || Number.POSITIVE_INFINITY;
    const host = spec?.hosts[0];
    const tasks = await collect(
      (cursor) =>
        naming(
          taskField,
          caller.tasks.list({
            jobId: id,
            states: ourStates(spec?.podStates ?? []),
            ...(host ? { host } : {}),
            ...sorted,
            limit: PAGE,
            cursor,
          }),
        ),
      { limit, keep: (t) => names.size === 0 || names.has(podName(t.jobId, t.instanceId)) },
    );
    const pods = tasks.map(
      (t): MessageInitShape<typeof PodInfoSchema> => ({
        status: podStatus(t),
        ...(req.summaryOnly
          ? {}
          : {
              spec: podSpecOf(
                pelotonMessage(
                  TaskConfigSchema,
                  taskConfigFor(job.config as JobConfig, t.instanceId),
                ),
                podName(t.jobId, t.instanceId),
              ),
            }),
      }),
    );
    return {
      pods,
      pagination: { limit: pagination?.limit ?? 0, offset: 0 },
    };
  },
};
