/**
 * peloton.api.v1alpha.watch.svc.WatchService: stateless jobs and a job's
 * pods as they change, streamed (watch-sources.ts). Fed by the same change
 * feed as the console's live views (`live.changes`, PostgreSQL
 * LISTEN/NOTIFY): each announcement of a source's topic rereads its objects
 * through the router and sends those that changed. The first answer holds
 * every object the filters select; `revision` counts a watch's answers.
 */
import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument } from "../calls/status.ts";
import { WatchService } from "../generated/peloton/api/v1alpha/watch/svc/watch_svc_pb.ts";
import { jobSource, podSource, type WatchAnswer, type WatchSource } from "./watch-sources.ts";

/** Open watches by id, so Cancel can end one. */
const watches = new Map<string, AbortController>();

/** The sources' answers as one. */
async function readAll(
  sources: readonly WatchSource[],
  keys: readonly string[] | null,
): Promise<WatchAnswer> {
  const answers = await Promise.all(sources.map((s) => s.read(keys)));
  return {
    statelessJobs: answers.flatMap((a) => a.statelessJobs),
    statelessJobsNotFound: answers.flatMap((a) => a.statelessJobsNotFound),
    pods: answers.flatMap((a) => a.pods),
    podsNotFound: answers.flatMap((a) => a.podsNotFound),
  };
}

const empty = (a: WatchAnswer) =>
  a.statelessJobs.length +
    a.statelessJobsNotFound.length +
    a.pods.length +
    a.podsNotFound.length ===
  0;

const handlers: Implementation<typeof WatchService> = {
  async *watch(req, { caller, signal }) {
    // Announcements are not kept: nothing before this watch's first answer can be replayed.
    if (req.startRevision)
      throw new ConnectError(
        `start_revision: revision ${req.startRevision} cannot be replayed: changes are announced, not kept, and each watch counts its own revisions; a watch starts from the current state (start_revision 0), its first answer holding every object the filters select`,
        Code.OutOfRange,
      );
    const sources: WatchSource[] = [];
    if (req.statelessJobFilter) sources.push(jobSource(caller, req.statelessJobFilter));
    if (req.podFilter) sources.push(podSource(caller, req.podFilter));
    if (sources.length === 0)
      throw invalidArgument(
        "pod_filter",
        "say what to watch: stateless_job_filter (jobs), pod_filter (a job's pods), or both",
      );

    const watchId = randomUUID();
    const cancel = new AbortController();
    watches.set(watchId, cancel);
    const ended = AbortSignal.any([signal, cancel.signal]);
    try {
      // Subscribed before the first read, so no change between the two is missed.
      const changes = await caller.live.changes({
        topics: [...new Set(sources.map((s) => s.topic))],
      });
      let revision = 1n;
      yield { watchId, revision, ...(await readAll(sources, null)) };
      const stop = new Promise<"stop">((resolve) =>
        ended.addEventListener("abort", () => resolve("stop"), { once: true }),
      );
      const iterator = changes[Symbol.asyncIterator]();
      while (!ended.aborted) {
        const next = await Promise.race([iterator.next(), stop]);
        if (next === "stop" || next.done) break;
        const message = next.value;
        let answer: WatchAnswer | null = null;
        if (message.kind === "resync") answer = await readAll(sources, null);
        else if (message.kind === "change")
          answer = await readAll(
            sources.filter((s) => s.topic === message.topic),
            message.keys,
          );
        if (!answer || empty(answer)) continue;
        revision += 1n;
        yield { watchId, revision, ...answer };
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
