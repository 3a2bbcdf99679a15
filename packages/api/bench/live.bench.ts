/**
 * `npm run bench -- live`: live.state_to_browser — from a task's state change
 * (its transaction, announced with NOTIFY as the task writer does) to the
 * server-sent event that tells a subscribed client about it, over the real
 * path: PostgreSQL LISTEN/NOTIFY → the process's ChangeListener (with its
 * coalescing window) → the `live.changes` tRPC subscription over HTTP SSE →
 * tRPC's client with an EventSource, as the console's browser tab has it
 * (benchmarks.md goal: p95 < 500 ms).
 */

import type { TaskState } from "@peloton/engine";
import { ensureRootPool } from "@peloton/scheduler";
import { createTRPCClient, httpSubscriptionLink } from "@trpc/client";
import { EventSource } from "undici";
import {
  type Benchmark,
  type BenchResult,
  log,
  median,
  percentile,
  round3,
  rssMb,
} from "../../../bench/harness.ts";
import type { AppRouter, LiveMessage } from "../src/index.ts";
import { transformer } from "../src/transformer.ts";
import { withServedApi } from "./served-api.ts";

const CHANGES = 200;
const WARMUP = 10;
/** Between changes: past the listener's coalescing window, so each is a quiet feed's change. */
const GAP_MS = 150;

const benchmarks: Benchmark[] = [
  {
    name: "live.state_to_browser",
    run: (): Promise<BenchResult> =>
      withServedApi("peloton_bench_live", async ({ gateway, api }) => {
        const client = createTRPCClient<AppRouter>({
          links: [httpSubscriptionLink({ url: `${api.url}/api/trpc`, transformer, EventSource })],
        });
        await ensureRootPool(gateway);
        const root = (await gateway.pools.getByPath("/"))!;
        const pool = await gateway.pools.create(
          { path: "/bench", name: "bench", parentId: root.id, resources: {} },
          "bench",
        );
        const { id: jobId } = await gateway.jobs.create({
          name: "live",
          type: "SERVICE",
          poolId: pool.id,
          owner: "bench",
          priority: 1,
          configYaml: "",
          config: {},
          instanceCount: 1,
          state: "PENDING",
        });
        await gateway.tasks.insertMany([
          {
            jobId,
            instanceId: 0,
            state: "PENDING",
            goalState: "RUNNING",
            priority: 1,
            preemptible: true,
            cpu: 1,
            memMb: 64,
            diskMb: 64,
            gpu: 0,
          },
        ]);
        const task = await gateway.taskReads.get(jobId, 0);
        if (!task) throw new Error("the bench task was not stored");

        // Each change's key carries its number, so a message is matched to its change.
        const waiting = new Map<string, (at: number) => void>();
        let connected: () => void = () => {};
        const ready = new Promise<void>((resolve) => (connected = resolve));
        const subscription = client.live.changes.subscribe(
          { topics: ["tasks"] },
          {
            onData: (message: LiveMessage) => {
              const at = performance.now();
              if (message.kind === "resync") return connected();
              if (message.kind === "heartbeat") return;
              for (const key of message.keys ?? []) waiting.get(key)?.(at);
            },
            onError: (err) => log("live stream failed", err),
          },
        );
        await ready;

        let state: TaskState = "PENDING";
        let runId = task.runId;
        const change = async (n: number): Promise<number> => {
          const key = `${jobId}/${n}`;
          const arrived = new Promise<number>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new Error(`change ${n}: no message in 5 s`)),
              5_000,
            );
            waiting.set(key, (at) => {
              clearTimeout(timer);
              resolve(at);
            });
          });
          const next: TaskState = state === "PENDING" ? "READY" : "PENDING";
          const t0 = performance.now();
          await gateway.transaction(async (tx) => {
            const { applied } = await tx.taskChanges.apply([
              {
                taskId: task.id,
                jobId,
                instanceId: 0,
                expect: { state, runId },
                state: next,
                reason: "BENCH",
                message: `change ${n}`,
                events: [],
              },
            ]);
            if (applied.length !== 1) throw new Error(`change ${n} missed its row`);
            await tx.changes.announce({ topic: "tasks", keys: [key] });
          });
          state = next;
          runId = task.runId;
          const at = await arrived;
          waiting.delete(key);
          return at - t0;
        };

        const times: number[] = [];
        for (let n = 0; n < WARMUP + CHANGES; n++) {
          const ms = await change(n);
          if (n >= WARMUP) times.push(ms);
          await new Promise((r) => setTimeout(r, GAP_MS));
        }
        subscription.unsubscribe();
        times.sort((a, b) => a - b);
        const p50 = median(times);
        const p95 = percentile(times, 95);
        log(
          `live.state_to_browser: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (goal p95 < 500 ms)`,
        );
        return {
          bench: "live.state_to_browser",
          unit: "ms",
          value: round3(p50),
          n: CHANGES,
          p50_ms: round3(p50),
          p95_ms: round3(p95),
          rss_mb: rssMb(),
          goal_p95_ms: 500,
          lead_ms: 25,
          coalesce_ms: 100,
        };
      }),
  },
];

export default benchmarks;
