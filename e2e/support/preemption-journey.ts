/**
 * Real preemptions for the browser tests, made by the running preemptor on
 * the e2e cluster before the backlog arrives (global-setup.ts), through the
 * API any user has. Pools under /oncall reserve nothing (the demo tree's
 * reservations stay as the pool specs expect) and cap their cores, so their
 * entitlements are known on an idle cluster:
 *
 *   /oncall          cpu limit 8
 *   ├── reports      nightly-reports: 8 × 1 core on rack r3 (one 8-core host)
 *   └── adhoc        adhoc-query: 4 × 1 core on rack r3, 5 s each
 *
 *   1. inter-pool: adhoc-query halves /oncall/reports' entitlement (8 → 4)
 *      and is admitted, but r3 is full: /oncall/reports stays 4 cores over
 *      for the sustained periods, 4 of its tasks are killed in favour of
 *      /oncall/adhoc; adhoc-query runs and ends; the victims run again
 *   2. intra-pool: urgent-report (priority 10, 5 s) waits in the full
 *      /oncall/reports; a priority-1 nightly-reports task makes room and
 *      comes back when urgent-report has ended
 *   3. nightly-reports is stopped: r3 is free for the specs
 */
import type { PreemptionRecord } from "@peloton/storage";
import type { apiClientWithToken } from "./auth.ts";
import { type PreemptionsFixture, preemptionFixture } from "./fixture.ts";

type Api = ReturnType<typeof apiClientWithToken>;

export const ONCALL_POOLS = ["/oncall", "/oncall/reports", "/oncall/adhoc"] as const;

const kinds = (cpu: number) => [
  { kind: "cpu" as const, reservation: 0, limit: cpu, share: 1 },
  { kind: "memory" as const, reservation: 0, limit: 16_384, share: 1 },
  { kind: "disk" as const, reservation: 0, limit: 20_000, share: 1 },
  { kind: "gpu" as const, reservation: 0, limit: 0, share: 1 },
];

/** A batch job of 1-core simulated tasks: on rack r3 when `rack`, for `ms` (or until killed). */
export function journeyJobYaml(
  name: string,
  opts: { instances: number; priority: number; ms?: number; rack?: string },
): string {
  const constraint = opts.rack
    ? `  constraint:
    labelConstraint: { kind: HOST, condition: CONDITION_EQUAL, label: { key: rack, value: ${opts.rack} }, requirement: 1 }
`
    : "";
  return `name: ${name}
type: BATCH
owningTeam: oncall
description: "The preemption journey of the browser tests"
labels:
  - key: suite
    value: e2e-preemption
instanceCount: ${opts.instances}
sla:
  priority: ${opts.priority}
  preemptible: true
defaultConfig:
  resource:
    cpuLimit: 1
    memLimitMb: 256
    diskLimitMb: 100
  command:
    value: "sleep 3600"
    environment:
      variables:
        - name: PELOTON_SIM_DURATION_MS
          value: "${opts.ms ?? 3_600_000}"
${constraint}`;
}

export async function createPool(api: Api, path: string, cpu: number, description: string) {
  await api.pools.create.mutate({
    path,
    config: {
      name: path.split("/").pop()!,
      owningTeam: "oncall",
      ldapGroups: [],
      description,
      resources: kinds(cpu),
    },
  });
}

/** Polls `probe` until it returns a value, or fails naming what it waited for. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    last = await probe();
    if (last !== null && last !== undefined && last !== false) return last as T;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs / 1000} s for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function running(api: Api, jobId: string): Promise<number> {
  const job = await api.jobs.get.query({ id: jobId });
  return (job.taskStats as Record<string, number>).RUNNING ?? 0;
}

async function jobState(api: Api, jobId: string): Promise<string> {
  return (await api.jobs.get.query({ id: jobId })).state;
}

async function preemptionsFrom(api: Api, pool: string): Promise<PreemptionRecord[]> {
  const page = await api.preemptions.list.query({ pool, side: "victim", limit: 100 });
  return page.items as unknown as PreemptionRecord[];
}

export async function preemptionJourney(api: Api): Promise<PreemptionsFixture> {
  const started = Date.now();
  await createPool(api, "/oncall", 8, "On-call's preemption journey (browser tests)");
  await createPool(api, "/oncall/reports", 8, "Nightly reports: hold the host they share");
  await createPool(api, "/oncall/adhoc", 8, "Ad-hoc queries: wait for their share");

  // 1. Inter-pool: /oncall/reports holds the whole host, then /oncall/adhoc wants half.
  const reports = await api.jobs.create.mutate({
    pool: "/oncall/reports",
    yaml: journeyJobYaml("nightly-reports", { instances: 8, priority: 1, rack: "r3" }),
  });
  await waitFor(
    "nightly-reports to run 8 tasks",
    async () => (await running(api, reports.id)) === 8,
  );
  const adhoc = await api.jobs.create.mutate({
    pool: "/oncall/adhoc",
    yaml: journeyJobYaml("adhoc-query", { instances: 4, priority: 1, ms: 5_000, rack: "r3" }),
  });
  await waitFor(
    "adhoc-query to succeed",
    async () => (await jobState(api, adhoc.id)) === "SUCCEEDED",
  );
  const inter = await waitFor("4 preempted nightly-reports tasks to run again", async () => {
    const rows = (await preemptionsFrom(api, "/oncall/reports")).filter(
      (p) => p.kind === "INTER_POOL",
    );
    return rows.length >= 4 && rows.every((p) => p.rescheduled !== null) ? rows : null;
  });

  // 2. Intra-pool: a priority-10 task waits in the full pool.
  await waitFor(
    "nightly-reports to run 8 tasks again",
    async () => (await running(api, reports.id)) === 8,
  );
  const urgent = await api.jobs.create.mutate({
    pool: "/oncall/reports",
    yaml: journeyJobYaml("urgent-report", { instances: 1, priority: 10, ms: 5_000, rack: "r3" }),
  });
  await waitFor(
    "urgent-report to succeed",
    async () => (await jobState(api, urgent.id)) === "SUCCEEDED",
  );
  const intra = await waitFor("the intra-pool victim to run again", async () => {
    const rows = (await preemptionsFrom(api, "/oncall/reports")).filter(
      (p) => p.kind === "INTRA_POOL",
    );
    return rows.length >= 1 && rows.every((p) => p.rescheduled !== null) ? rows : null;
  });

  // 3. The host goes back to the specs.
  await api.jobs.stop.mutate({ id: reports.id });
  await waitFor(
    "nightly-reports to be stopped",
    async () => (await jobState(api, reports.id)) === "KILLED",
  );

  const all = await preemptionsFrom(api, "/oncall/reports");
  console.log(
    `e2e preemption journey: ${inter.length} inter-pool and ${intra.length} intra-pool preemptions, all back, in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  return preemptionFixture({ cameBack: inter.at(-1)!, intra: intra[0]! }, all);
}
