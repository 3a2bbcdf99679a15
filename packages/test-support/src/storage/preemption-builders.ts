/**
 * Builders for preemption rows in tests and benchmarks:
 * `preemptionNumbers({ allocation: 30, entitlement: 24, victim: 3 })` is an
 * inter-pool decision on cpu (over by 6, all 6 still to free); other kinds 0.
 */
import type {
  Amounts,
  PreemptionNumbers,
  PreemptionRecord,
  PreemptionVictim,
} from "@peloton/storage";

export const amounts = (a: Partial<Amounts> = {}): Amounts => ({
  cpu: 0,
  gpu: 0,
  memory: 0,
  disk: 0,
  ...a,
});

export function preemptionNumbers(
  cpu: { allocation: number; entitlement: number; victim: number; remaining?: number },
  over: Partial<PreemptionNumbers> = {},
): PreemptionNumbers {
  const excess = Math.max(0, cpu.allocation - cpu.entitlement);
  return {
    resourceClass: "NON_SLACK",
    rank: 1,
    allocation: amounts({ cpu: cpu.allocation }),
    entitlement: amounts({ cpu: cpu.entitlement }),
    demand: amounts(),
    excess: amounts({ cpu: excess }),
    remaining: amounts({ cpu: cpu.remaining ?? excess }),
    victim: amounts({ cpu: cpu.victim }),
    beneficiaries: [],
    gang: null,
    ...over,
  };
}

/**
 * A recorded preemption as readers get it: web-reports/2 (run 1, priority
 * 1) killed in /web at 2026-11-23 10:00 UTC, for no pool; `over` replaces
 * fields, `victim` fields of the victim.
 */
export function preemptionRecord(
  over: Partial<Omit<PreemptionRecord, "victim">> & { victim?: Partial<PreemptionVictim> } = {},
): PreemptionRecord {
  const { victim, ...rest } = over;
  return {
    id: "1",
    at: new Date("2026-11-23T10:00:00Z"),
    kind: "INTER_POOL",
    victim: {
      taskId: "t",
      jobId: "j",
      jobName: "web-reports",
      instanceId: 2,
      runId: 1,
      priority: 1,
      state: "RUNNING",
      stateAfter: "PREEMPTING",
      poolId: "p",
      poolPath: "/web",
      ...victim,
    },
    beneficiary: null,
    level: null,
    reason: "",
    numbers: preemptionNumbers({ allocation: 30, entitlement: 24, victim: 3 }),
    rescheduled: null,
    taskNow: { state: "PREEMPTING", runId: 1 },
    ...rest,
  };
}
