import { CHANGE_TOPICS, type ChangeTopic } from "@peloton/storage";
import { z } from "zod";
import { protectedProcedure } from "../auth/authorize.ts";
import type { ChangeFeed } from "../context.ts";
import { router } from "../trpc.ts";

export const liveInput = z.object({
  topics: z
    .array(z.enum(CHANGE_TOPICS))
    .min(1, "name at least one topic")
    .max(CHANGE_TOPICS.length, `at most ${CHANGE_TOPICS.length} topics`),
});

/**
 * How often a stream says it is alive. A browser that hears nothing for
 * about two of these knows the server is gone, even when no error reaches it
 * (a hung server, a dropped network path keep the connection open).
 */
export const LIVE_HEARTBEAT_MS = 2_000;

/** Whether the server hears the database's announcements (see ChangeListener). */
export type LiveFeedState = ChangeFeed["state"];

/**
 * What a live stream carries: a change (refetch what shows these keys), or the
 * server's own feed state. `resync` follows a gap (the stream or the database
 * connection was down), after which everything shown must be refetched.
 * `heartbeat` comes every `everyMs` and at once when the feed's state
 * changes: a feed that is not `listening` means changes are not arriving,
 * so the view is not live even though the server answers.
 */
export type LiveMessage =
  | { kind: "change"; topic: ChangeTopic; keys: string[] | null }
  | { kind: "resync" }
  | { kind: "heartbeat"; everyMs: number; feed: LiveFeedState };

/** Server-sent events of committed changes (tRPC subscription over SSE). */
export const liveRouter = router({
  changes: protectedProcedure.input(liveInput).subscription(async function* ({
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
    const heartbeat = (): LiveMessage => ({
      kind: "heartbeat",
      everyMs: LIVE_HEARTBEAT_MS,
      feed: ctx.changes.state,
    });
    const offChange = ctx.changes.subscribe((c) => {
      if (wanted.has(c.topic)) push({ kind: "change", topic: c.topic, keys: c.keys });
    });
    const offState = ctx.changes.onState((state) => {
      // Back to listening: announcements made meanwhile were lost, so refetch all.
      push(state === "listening" ? { kind: "resync" } : heartbeat());
    });
    const beating = setInterval(() => push(heartbeat()), LIVE_HEARTBEAT_MS);
    const aborted = new Promise<void>((resolve) =>
      signal?.addEventListener("abort", () => resolve(), { once: true }),
    );
    try {
      // A (re)connected browser may have missed changes: start with a resync,
      // then say at once how often to expect a heartbeat and whether changes flow.
      yield { kind: "resync" };
      yield heartbeat();
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
      clearInterval(beating);
      offChange();
      offState();
    }
  }),
});
