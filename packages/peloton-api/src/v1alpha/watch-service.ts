/**
 * peloton.api.v1alpha.watch.svc.WatchService: a job's pods as they change,
 * streamed. Fed by the same change feed as the console's live views
 * (`live.changes`, PostgreSQL LISTEN/NOTIFY): each announcement of the job's
 * tasks rereads them through the router and sends the pods whose state or
 * run changed. The first answer holds every pod the filter selects.
 */
import { randomUUID } from "node:crypto";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Caller } from "../calls/deps.ts";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import { PodState, type PodSummarySchema } from "../generated/peloton/api/v1alpha/pod/pod_pb.ts";
import {
  type WatchResponseSchema,
  WatchService,
} from "../generated/peloton/api/v1alpha/watch/svc/watch_svc_pb.ts";
import { timeText } from "../v0/config.ts";
import type { TaskListed } from "../v0/task-info.ts";

/** Open watches by id, so Cancel can end one. */
const watches = new Map<string, AbortController>();

/** Tasks per read of the router's list (its maximum). */
const PAGE = 1000;

/** Our task states are Peloton's; its v1alpha pod states are the same names (POD_STATE_ in the proto). */
function podState(name: string): PodState {
  return PodState[name as keyof typeof PodState] ?? PodState.INVALID;
}

/** Peloton's pod name: "<job id>-<instance>". */
function podName(task: TaskListed): string {
  return `${task.jobId}-${task.instanceId}`;
}

function podSummary(task: TaskListed): MessageInitShape<typeof PodSummarySchema> {
  return {
    podName: { value: podName(task) },
    status: {
      state: podState(task.state),
      desiredState: podState(task.goalState),
      podId: { value: `${podName(task)}-${task.runId}` },
      startTime: timeText(task.startedAt),
      completionTime: timeText(task.finishedAt),
      host: task.hostname ?? "",
      message: task.message ?? "",
      reason: task.reason ?? "",
      failureCount: task.failureCount,
    },
  };
}

async function jobTasks(caller: Caller, jobId: string): Promise<TaskListed[]> {
  const tasks: TaskListed[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<Caller["tasks"]["list"]>> = await caller.tasks.list({
      jobId,
      limit: PAGE,
      cursor,
    });
    tasks.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return tasks;
}

const handlers: Implementation<typeof WatchService> = {
  async *watch(req, { caller, signal }) {
    if (req.statelessJobFilter)
      throw unimplemented(
        "stateless_job_filter: v1alpha stateless jobs are not served yet; watch a job's pods with pod_filter",
      );
    if (req.startRevision)
      throw unimplemented("start_revision: a watch starts from the current state here");
    const filter = req.podFilter;
    const jobId = filter?.jobId?.value ?? "";
    if (!jobId) throw invalidArgument("pod_filter.job_id", "name the job whose pods to watch");
    if (filter?.labels.length)
      throw unimplemented("pod_filter.labels: filtering pods by label is not supported yet");
    const names = new Set(filter?.podNames.map((n) => n.value) ?? []);
    const wanted = (t: TaskListed) => names.size === 0 || names.has(podName(t));

    const watchId = randomUUID();
    const cancel = new AbortController();
    watches.set(watchId, cancel);
    const ended = AbortSignal.any([signal, cancel.signal]);
    // Subscribed before the first read, so no change between the two is missed.
    const changes = await caller.live.changes({ topics: ["tasks"] });
    const sent = new Map<string, string>();
    let revision = 0n;
    const changed = async (): Promise<MessageInitShape<typeof WatchResponseSchema> | null> => {
      const pods = (await jobTasks(caller, jobId)).filter(wanted).filter((t) => {
        const seen = `${t.state}/${t.runId}/${t.goalState}`;
        if (sent.get(podName(t)) === seen) return false;
        sent.set(podName(t), seen);
        return true;
      });
      if (pods.length === 0 && revision > 0n) return null;
      revision += 1n;
      return { watchId, revision, pods: pods.map(podSummary) };
    };
    try {
      const first = await changed();
      if (first) yield first;
      const stop = new Promise<"stop">((resolve) =>
        ended.addEventListener("abort", () => resolve("stop"), { once: true }),
      );
      const iterator = changes[Symbol.asyncIterator]();
      while (!ended.aborted) {
        const next = await Promise.race([iterator.next(), stop]);
        if (next === "stop" || next.done) break;
        const message = next.value;
        const ours =
          message.kind === "resync" ||
          (message.kind === "change" &&
            (message.keys === null || message.keys.some((k) => k.startsWith(`${jobId}/`))));
        if (!ours) continue;
        const answer = await changed();
        if (answer) yield answer;
      }
      await iterator.return?.();
    } finally {
      watches.delete(watchId);
    }
  },

  async cancel(req) {
    const watch = watches.get(req.watchId);
    if (!watch) throw invalidArgument("watch_id", `no open watch ${req.watchId} on this server`);
    watch.abort();
    return {};
  },
};

export const watchService = serve(
  WatchService,
  handlers,
  (m) => `WatchService.${m.name} is not served yet`,
);
