"use client";
/**
 * Live updates: one server-sent-event stream per browser tab (tRPC
 * subscription `live.changes`, fed by PostgreSQL LISTEN/NOTIFY). A change
 * invalidates the queries of the routers that show that kind of thing, so
 * the visible page refetches just what it shows (one page of a table, one
 * job); TanStack Query skips queries nobody is looking at. Invalidation is
 * throttled per router so a burst of task transitions costs a few refetches,
 * not thousands. The connection (live-connection.ts) says when the stream
 * is lost and comes back by itself; every (re)connection starts with a
 * resync, so a page left open through an outage shows the present again.
 */
import type { LiveMessage } from "@peloton/api";
import { type Query, useQueryClient } from "@tanstack/react-query";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { INITIAL_LIVE_STATE, LiveConnection, type LiveState } from "./live-connection";
import { useTRPCClient } from "./trpc";
import { useHydrated } from "./use-hydrated";

type Change = Extract<LiveMessage, { kind: "change" }>;
export type ChangeTopic = Change["topic"];

/** Which routers' queries show each kind of change. */
const ROUTERS_OF_TOPIC: Record<ChangeTopic, readonly string[]> = {
  pools: ["pools", "overview", "search"],
  jobs: ["jobs", "pools", "overview", "search", "volumes"],
  // An update moves as its instances do: its progress is shown beside them.
  tasks: ["tasks", "jobs", "pools", "hosts", "overview", "updates"],
  hosts: ["hosts", "overview", "search"],
  preemptions: ["preemptions", "pools", "tasks", "overview"],
  updates: ["updates", "jobs"],
  volumes: ["volumes", "tasks"],
  audit: ["audit", "overview"],
};
const TOPICS = Object.keys(ROUTERS_OF_TOPIC) as ChangeTopic[];

/** At most one refetch per router in this window (the first at once, the last at its end). */
const THROTTLE_MS = 400;

export type { LiveState, LiveStatus, OfflineReason } from "./live-connection";

interface LiveContextValue extends LiveState {
  /** Calls `fn` with every change until the returned function is called. */
  onChange: (fn: (change: Change) => void) => () => void;
}

const LiveContext = createContext<LiveContextValue>({
  ...INITIAL_LIVE_STATE,
  onChange: () => () => {},
});

function routerOf(query: Query): string | undefined {
  const key = query.queryKey[0];
  return Array.isArray(key) && typeof key[0] === "string" ? key[0] : undefined;
}

function useThrottledInvalidation() {
  const queryClient = useQueryClient();
  const timers = useRef(new Map<string, { timer: number; again: boolean }>());
  // Routers whose refetch is under way, and whether a change came in meanwhile.
  const fetching = useRef(new Map<string, boolean>());
  const invalidate = useCallback(
    function invalidate(router: string): void {
      // A refetch is never cancelled by the next change: when changes come
      // faster than a page of data loads (a rolling update moves an instance
      // every few hundred ms), cancelling would start over forever and the
      // page would keep its old data. One refetch at a time per router, and
      // one more after it when something changed while it ran.
      if (fetching.current.has(router)) {
        fetching.current.set(router, true);
        return;
      }
      fetching.current.set(router, false);
      void queryClient
        .invalidateQueries({ predicate: (q) => routerOf(q) === router }, { cancelRefetch: false })
        .finally(() => {
          const again = fetching.current.get(router);
          fetching.current.delete(router);
          if (again) invalidate(router);
        });
    },
    [queryClient],
  );
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const t of pending.values()) window.clearTimeout(t.timer);
      pending.clear();
    };
  }, []);
  return useCallback(
    (router: string) => {
      const slot = timers.current.get(router);
      if (slot) {
        slot.again = true;
        return;
      }
      invalidate(router);
      const entry = {
        again: false,
        timer: window.setTimeout(() => {
          timers.current.delete(router);
          if (entry.again) invalidate(router);
        }, THROTTLE_MS),
      };
      timers.current.set(router, entry);
    },
    [invalidate],
  );
}

export function LiveProvider({ children }: { children: ReactNode }) {
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const invalidateRouter = useThrottledInvalidation();
  const listeners = useRef(new Set<(change: Change) => void>());
  const [state, setState] = useState<LiveState>(INITIAL_LIVE_STATE);

  const onMessage = useRef<(message: LiveMessage) => void>(() => {});
  onMessage.current = (message) => {
    if (message.kind === "resync") {
      // Something may have been missed while the stream was down (or before
      // it started): every query on screen refetches, the others go stale.
      void queryClient.invalidateQueries();
    } else if (message.kind === "change") {
      for (const router of ROUTERS_OF_TOPIC[message.topic]) invalidateRouter(router);
      for (const fn of listeners.current) fn(message);
    }
  };

  useEffect(() => {
    const connection = new LiveConnection({
      open: ({ onData, onLost }) => {
        const subscription = client.live.changes.subscribe(
          { topics: TOPICS },
          {
            onData,
            onError: onLost,
            onComplete: () => onLost(),
            // The EventSource failed and would retry on its own schedule: ours decides.
            onConnectionStateChange: (s) => {
              if (s.state === "connecting" && s.error) onLost(s.error);
            },
          },
        );
        return () => subscription.unsubscribe();
      },
      onMessage: (message) => onMessage.current(message),
      onState: setState,
    });
    connection.start();
    const online = () => connection.retryNow();
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      connection.stop();
    };
  }, [client]);

  useRefetchSeededQueries();

  const onChange = useCallback((fn: (change: Change) => void) => {
    listeners.current.add(fn);
    return () => {
      listeners.current.delete(fn);
    };
  }, []);
  const value = useMemo(() => ({ ...state, onChange }), [state, onChange]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

/**
 * A query that starts with data rendered elsewhere (the server's render of
 * the page, a row of a list) holds what was true when that was fetched, and
 * a change committed between that fetch and the query's creation
 * invalidated nothing, since the query did not exist yet. So every seeded
 * query is refetched once, right after it appears: a page never shows a
 * state older than its own first moment on screen (a job that started
 * while its page loaded would otherwise show PENDING until its next change).
 */
function useRefetchSeededQueries(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const cache = queryClient.getQueryCache();
    return cache.subscribe((event) => {
      if (event.type !== "added" || event.query.state.data === undefined) return;
      const { queryKey } = event.query;
      // Not while the page renders: the query is added as its component
      // hydrates, and a fetch under way or new data before the rest of that
      // boundary has hydrated would differ from the server's HTML. The
      // browser is idle once hydration's work is done.
      afterHydration(() => void queryClient.invalidateQueries({ queryKey, exact: true }));
    });
  }, [queryClient]);
}

/** Runs `fn` when the browser is next idle (at the latest in a second). */
function afterHydration(fn: () => void): void {
  if (typeof window.requestIdleCallback === "function") {
    window.requestIdleCallback(fn, { timeout: 1000 });
  } else {
    window.setTimeout(fn, 50);
  }
}

/** The stream's state, for the live indicator and for views that retry when the server is back. */
export function useLive(): LiveState {
  const { status, reason, offlineSince, nextAttemptAt } = useContext(LiveContext);
  // The stream may have connected before a later Suspense boundary hydrates:
  // until then the server's word ("connecting") is shown.
  const hydrated = useHydrated();
  if (!hydrated) return INITIAL_LIVE_STATE;
  return { status, reason, offlineSince, nextAttemptAt };
}

/** Runs `fn` for each change of `topic` (e.g. to follow one job's keys); invalidation happens anyway. */
export function useLiveChanges(topic: ChangeTopic, fn: (keys: string[] | null) => void): void {
  const { onChange } = useContext(LiveContext);
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(
    () =>
      onChange((change) => {
        if (change.topic === topic) latest.current(change.keys);
      }),
    [onChange, topic],
  );
}
