/**
 * peloton.api.v1alpha.watch.svc.WatchService: a job's pods as they change,
 * streamed. Fed by the same change feed as the console's live views
 * (`live.changes`, PostgreSQL LISTEN/NOTIFY): each announcement of the job's
 * tasks rereads them through the router and sends the pods whose state or
 * run changed. The first answer holds every pod the filter selects.
 */
import { randomUUID } from "node:crypto";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import {
  type WatchResponseSchema,
  WatchService,
} from "../generated/peloton/api/v1alpha/watch/svc/watch_svc_pb.ts";
import type { TaskListed } from "../v0/task-info.ts";
import { jobTasks, podName, podSummary } from "./pods.ts";

/** Open watches by id, so Cancel can end one. */
const watches = new Map<string, AbortController>();

const handlers: Implementation<typeof WatchService> = {
  async *watch(req, { caller, signal }) {
    if (req.statelessJobFilter)
      throw unimplemented(
        "stateless_job_filter: watching jobs is not supported yet; watch a job's pods with pod_filter",
      );
    if (req.startRevision)
      throw unimplemented("start_revision: a watch starts from the current state here");
    const filter = req.podFilter;
    const jobId = filter?.jobId?.value ?? "";
    if (!jobId) throw invalidArgument("pod_filter.job_id", "name the job whose pods to watch");
    if (filter?.labels.length)
      throw unimplemented("pod_filter.labels: filtering pods by label is not supported yet");
    const names = new Set(filter?.podNames.map((n) => n.value) ?? []);
    const name = (t: TaskListed) => podName(t.jobId, t.instanceId);
    const wanted = (t: TaskListed) => names.size === 0 || names.has(name(t));

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
        if (sent.get(name(t)) === seen) return false;
        sent.set(name(t), seen);
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
