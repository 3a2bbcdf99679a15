/**
 * `npm run bench -- api.authz`: what asking the policy adds to a mutation
 * (docs/identity.md; benchmarks.md goal: p95 < 1 ms). The same `jobs.stop`
 * of an already stopped job through createCaller, once as the app router
 * builds it (authorizedProcedure: the job's pool read, decide, then the
 * stop) and once through a twin without the policy (protectedProcedure),
 * the two interleaved so that the machine's noise falls on both; and the
 * check alone (the access fn's reads and decide), which is the added cost.
 */
import { ensureRootPool, schedulerServices } from "@peloton/scheduler";
import { ChangeListener, openGateway } from "@peloton/storage";
import { createScratchDatabase } from "@peloton/test-support/storage/scratch-database.ts";
import {
  type Benchmark,
  type BenchResult,
  log,
  median,
  percentile,
  round3,
  rssMb,
} from "../../../bench/harness.ts";
import type { Actor } from "../src/auth/actor.ts";
import { protectedProcedure, type SignedInContext } from "../src/auth/authorize.ts";
import { decide } from "../src/auth/policy.ts";
import type { Context } from "../src/context.ts";
import { createCaller } from "../src/index.ts";
import { jobAccess } from "../src/routers/access.ts";
import { act } from "../src/routers/jobs.handler.ts";
import { jobRefInput } from "../src/schemas/jobs.ts";
import { createCallerFactory, router } from "../src/trpc.ts";

const NAME = "api.authz_overhead";
const WARMUP = 50;
const ROUNDS = 1000;

/** An operator of the pool's owning team: the policy reads the pool and allows. */
const OPERATOR: Actor = {
  userId: "00000000-0000-4000-8000-000000000001",
  login: "bench",
  displayName: "Bench",
  role: "OPERATOR",
  teams: ["bench"],
  hostMaintenance: false,
  via: { kind: "session" },
};

/** jobs.stop as it was before the policy: signed in, then the stop. */
const unguarded = createCallerFactory(
  router({
    stop: protectedProcedure
      .input(jobRefInput)
      .mutation(({ ctx, input }) => act(ctx, input.id, { kind: "stop" }, input.version)),
  }),
);

const YAML = `name: bench
type: 0
instancecount: 1
sla:
  preemptible: true
defaultconfig:
  resource:
    cpulimit: 0.1
    memlimitmb: 16
  command:
    value: 'true'
`;

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: median(sorted), p95: percentile(sorted, 95) };
}

const benchmarks: Benchmark[] = [
  {
    name: NAME,
    run: async (): Promise<BenchResult> => {
      const db = await createScratchDatabase("peloton_bench_authz");
      const gateway = openGateway(db.url, { max: 4 });
      const changes = new ChangeListener(db.url);
      try {
        await ensureRootPool(gateway);
        const root = (await gateway.pools.getByPath("/"))!;
        const pool = "/bench";
        await gateway.pools.create(
          {
            path: pool,
            name: "bench",
            parentId: root.id,
            owningTeam: "bench",
            resources: {
              cpu: { reservation: 10, limit: 10, share: 1 },
              memory: { reservation: 10_000, limit: 10_000, share: 1 },
            },
          },
          "bench",
        );
        const ctx: Context = {
          gateway,
          scheduler: schedulerServices(gateway),
          changes,
          actor: OPERATOR,
        };
        const guarded = createCaller(ctx);
        const twin = unguarded(ctx);
        const { id } = await guarded.jobs.create({ pool, yaml: YAML });
        await guarded.jobs.stop({ id });

        const withPolicy: number[] = [];
        const without: number[] = [];
        const check: number[] = [];
        const signedIn = ctx as SignedInContext;
        for (let i = 0; i < WARMUP + ROUNDS; i++) {
          const t0 = performance.now();
          await guarded.jobs.stop({ id });
          const t1 = performance.now();
          await twin.stop({ id });
          const t2 = performance.now();
          const access = await jobAccess(signedIn, id, "stop");
          if (!decide(OPERATOR, access.request).allowed) throw new Error("the policy refused");
          const t3 = performance.now();
          if (i < WARMUP) continue;
          withPolicy.push(t1 - t0);
          without.push(t2 - t1);
          check.push(t3 - t2);
        }
        const w = summary(withPolicy);
        const wo = summary(without);
        const c = summary(check);
        log(
          `${NAME}: the check alone p50 ${c.p50.toFixed(3)} ms, p95 ${c.p95.toFixed(3)} ms (goal p95 < 1 ms); ` +
            `jobs.stop with the policy p50 ${w.p50.toFixed(3)} / p95 ${w.p95.toFixed(3)} ms, ` +
            `without p50 ${wo.p50.toFixed(3)} / p95 ${wo.p95.toFixed(3)} ms ` +
            `(added p50 ${(w.p50 - wo.p50).toFixed(3)}, p95 ${(w.p95 - wo.p95).toFixed(3)} ms)`,
        );
        return {
          bench: NAME,
          unit: "ms",
          value: round3(c.p50),
          n: ROUNDS,
          p50_ms: round3(c.p50),
          p95_ms: round3(c.p95),
          rss_mb: rssMb(),
          goal_p95_ms: 1,
          mutation_with_policy_p50_ms: round3(w.p50),
          mutation_with_policy_p95_ms: round3(w.p95),
          mutation_without_policy_p50_ms: round3(wo.p50),
          mutation_without_policy_p95_ms: round3(wo.p95),
          added_p50_ms: round3(w.p50 - wo.p50),
          added_p95_ms: round3(w.p95 - wo.p95),
        };
      } finally {
        await changes.stop();
        await gateway.close();
        await db.dispose();
      }
    },
  },
];
export default benchmarks;
