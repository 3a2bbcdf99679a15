import { CHANGE_TOPICS, type ChangeTopic } from "@peloton/storage";
import { z } from "zod";
import { publicProcedure, router } from "../trpc.ts";

export const liveInput = z.object({
  topics: z
    .array(z.enum(CHANGE_TOPICS))
    .min(1, "name at least one topic")
    .max(CHANGE_TOPICS.length, `at most ${CHANGE_TOPICS.length} topics`),
});

/**
 * What a live stream carries: a change (refetch what shows these keys), or the
 * server's own feed state. `resync` follows a gap (the stream or the database
 * connection was down), after which everything shown must be refetched.
 */
export type LiveMessage =
  | { kind: "change"; topic: ChangeTopic; keys: string[] | null }
  | { kind: "resync" };

/** Server-sent events of committed changes (tRPC subscription over SSE). */
export const liveRouter = router({
  changes: publicProcedure.input(liveInput).subscription(async function* ({
    ctx,
    input,
    signal,
  }): AsyncGenerator<LiveMessage> {
    const wanted = new Set<ChangeTopic>(input.topics);
    const queue: LiveMessage[] = [];
    let wake: (() => void) | undefined;
    const push = (m: LiveMessage) => {
      queue.push(m);
      wake?.();
    };
    const offChange = ctx.changes.subscribe((c) => {
      if (wanted.has(c.topic)) push({ kind: "change", topic: c.topic, keys: c.keys });
    });
    const offState = ctx.changes.onState((state) => {
      if (state === "listening") push({ kind: "resync" });
    });
    const aborted = new Promise<void>((resolve) =>
      signal?.addEventListener("abort", () => resolve(), { once: true }),
    );
    try {
      // A (re)connected browser may have missed changes: start with a resync.
      yield { kind: "resync" };
      while (!signal?.aborted) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
        wake = undefined;
      }
    } finally {
      offChange();
      offState();
    }
  }),
});
