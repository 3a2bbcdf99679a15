/**
 * Seeded random preemption cycles for the benchmark: leaf pools under 20
 * parents, tasks spread over them in every state; a busy period: a fifth of
 * the pools 15% over their entitlement and at the sustained count (all due
 * at once), and a gang waiting in a fifth of the others, 10% short of room.
 */
import type {
  JobAvailability,
  PendingGang,
  PreemptionInput,
  PreemptionPool,
  PreemptionTask,
  Resources,
} from "../src/index.ts";

const STATES = ["PENDING", "READY", "PLACING", "RUNNING", "RUNNING", "RUNNING", "RUNNING"];

export function randomPreemption(
  random: () => number,
  opts: { pools: number; tasks: number },
): PreemptionInput {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const perPool = Math.ceil(opts.tasks / opts.pools);
  const tasks: PreemptionTask[] = [];
  const pools: PreemptionPool[] = [];
  const jobs: Record<string, JobAvailability> = {};
  const waiting: PendingGang[] = [];
  const counts: Record<string, number> = {};
  for (let p = 0; p < opts.pools; p++) {
    const path = `/org-${p % 20}/team-${p}`;
    const alloc: Resources = { cpu: 0, gpu: 0, memory: 0, disk: 0 };
    const slackAlloc: Resources = { cpu: 0, gpu: 0, memory: 0, disk: 0 };
    for (let i = 0; i < perPool && tasks.length < opts.tasks; i++) {
      const jobId = `${path}/job-${i % 10}`;
      const revocable = random() < 0.2;
      const resources: Resources = {
        cpu: pick([0.5, 1, 2, 4]),
        gpu: 0,
        memory: pick([512, 1024, 4096]),
        disk: 1000,
      };
      const state = pick(STATES);
      if (state !== "PENDING") {
        const into = revocable ? slackAlloc : alloc;
        for (const k of ["cpu", "memory", "disk"] as const) into[k] += resources[k];
      }
      tasks.push({
        taskId: `${path}/t-${i}`,
        jobId,
        pool: path,
        state,
        priority: Math.floor(random() * 5),
        preemptible: random() < 0.9,
        revocable,
        resources,
        ...(state === "RUNNING"
          ? { startedAt: 1_700_000_000_000 + Math.floor(random() * 1e7) }
          : {}),
      });
      if (i % 10 === 0 && random() < 0.5) {
        jobs[jobId] = { maximumUnavailableInstances: 2, unavailableInstances: 0 };
      }
    }
    const over = random() < 0.2;
    const share = over ? 0.85 : 1.2;
    const scale = (r: Resources, f: number): Resources => ({
      cpu: r.cpu * f,
      gpu: r.gpu * f,
      memory: r.memory * f,
      disk: r.disk * f,
    });
    pools.push({
      path,
      nonSlackEntitlement: scale(alloc, share),
      slackEntitlement: scale(slackAlloc, share),
      allocation: alloc,
      slackAllocation: slackAlloc,
      demand: over
        ? { cpu: 0, gpu: 0, memory: 0, disk: 0 }
        : { cpu: 20, gpu: 0, memory: 4096, disk: 0 },
      slackDemand: { cpu: 0, gpu: 0, memory: 0, disk: 0 },
    });
    counts[path] = over ? 2 : 0;
    if (!over && random() < 0.2) {
      waiting.push({
        gangId: `${path}/gang`,
        pool: path,
        priority: 4,
        revocable: false,
        resources: scale(alloc, 0.3),
        taskIds: [`${path}/waiting-0`],
      });
    }
  }
  return {
    pools,
    tasks,
    jobs,
    overAllocationCounts: counts,
    sustainedCount: 3,
    waiting,
  };
}
