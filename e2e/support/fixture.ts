/**
 * What the browser tests expect to see: written by serve.ts (the cluster) and
 * global-setup.ts (the real preemptions it caused, the work submitted to
 * it), read by the specs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PreemptionRecord } from "@peloton/storage";

/** What a preemption spec checks of one recorded preemption (JSON: times as ISO text). */
export interface PreemptionFact {
  id: string;
  kind: PreemptionRecord["kind"];
  victim: {
    taskId: string;
    jobId: string;
    jobName: string;
    instanceId: number;
    runId: number;
    poolPath: string;
  };
  beneficiaryPool: string | null;
  level: string | null;
  reason: string;
  /** The numbers of the kind the decision was about (cpu in these scenarios). */
  cpu: {
    allocation: number;
    entitlement: number;
    excess: number;
    remaining: number;
    victim: number;
  };
  rescheduledRunId: number | null;
}

/**
 * The real preemptions the specs follow (preemption-journey.ts makes them
 * before the backlog): an inter-pool victim that came back — the on-call
 * journey's — an intra-pool one, and every row of the journey's pool.
 */
export interface PreemptionsFixture {
  cameBack: PreemptionFact;
  intra: PreemptionFact;
  all: {
    id: string;
    kind: PreemptionRecord["kind"];
    victimPool: string;
    beneficiaryPool: string | null;
  }[];
}

function fact(p: PreemptionRecord): PreemptionFact {
  const n = p.numbers;
  return {
    id: p.id,
    kind: p.kind,
    victim: {
      taskId: p.victim.taskId,
      jobId: p.victim.jobId,
      jobName: p.victim.jobName,
      instanceId: p.victim.instanceId,
      runId: p.victim.runId,
      poolPath: p.victim.poolPath,
    },
    beneficiaryPool: p.beneficiary?.poolPath ?? null,
    level: p.level,
    reason: p.reason,
    cpu: {
      allocation: n.allocation.cpu,
      entitlement: n.entitlement.cpu,
      excess: n.excess.cpu,
      remaining: n.remaining.cpu,
      victim: n.victim.cpu,
    },
    rescheduledRunId: p.rescheduled?.runId ?? null,
  };
}

export function preemptionFixture(
  chosen: { cameBack: PreemptionRecord; intra: PreemptionRecord },
  all: readonly PreemptionRecord[],
): PreemptionsFixture {
  return {
    cameBack: fact(chosen.cameBack),
    intra: fact(chosen.intra),
    all: all.map((p) => ({
      id: p.id,
      kind: p.kind,
      victimPool: p.victim.poolPath,
      beneficiaryPool: p.beneficiary?.poolPath ?? null,
    })),
  };
}

export interface E2eFixture {
  pools: number;
  poolPaths: string[];
  hosts: number;
  hostsByState: Record<string, number>;
  /** The console's in-process mesos-sim (its control API adds and removes agents). */
  simUrl: string;
  /** The scratch database, for specs that make a change through the storage gateway. */
  databaseUrl: string;
  preemptions: PreemptionsFixture;
  /** The backlog jobs global-setup.ts submitted; jobs and tasks once it settled. */
  backlogJobs: { id: string; name: string; pool: string }[];
  jobs: number;
  tasks: number;
  /** An admin API token (global-setup.ts), for the specs' API calls and CLI runs. */
  adminToken: string;
  /** Headers that make a raw HTTP request to the API act as the admin (`authorization: Bearer`). */
  apiHeaders: Record<string, string>;
}

/**
 * The cluster the console's mesos-sim runs in the browser tests (agent file
 * entries): the demo cluster's capacity — 64 cores, 256 GB, 8 GPUs — so the
 * demo pools' reservations fit the root as pool validation demands, in two
 * zones, two of the eight agents with GPUs. The CPU agents run tasks as real
 * processes (their stdout is real); a task with PELOTON_SIM_DURATION_MS in
 * its environment is simulated anywhere, and the GPU agents simulate all.
 */
export const E2E_AGENTS = [
  ...Array.from({ length: 6 }, (_, i) => ({
    hostname: `e2e-host-${i}`,
    resources: { cpus: 8, mem: 32768, disk: 100000 },
    attributes: { zone: i % 2 ? "us-east-1b" : "us-east-1a", rack: `r${i + 1}` },
    simulateTasks: false,
  })),
  ...Array.from({ length: 2 }, (_, i) => ({
    hostname: `e2e-gpu-${i}`,
    resources: { cpus: 8, mem: 32768, disk: 100000, gpus: 4 },
    attributes: { zone: i % 2 ? "us-east-1b" : "us-east-1a", rack: `r${i + 7}`, gpu_model: "a100" },
    simulateTasks: true,
  })),
];

export const FIXTURE_FILE = join(
  import.meta.dirname,
  "..",
  "..",
  "test-results",
  "e2e-fixture.json",
);

export function readFixture(): E2eFixture {
  return JSON.parse(readFileSync(FIXTURE_FILE, "utf8")) as E2eFixture;
}
