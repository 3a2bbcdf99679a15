/**
 * The preemptor's settings from the environment (`npm start`), read and
 * checked by `@peloton/engine/environment`:
 *
 *   PELOTON_PREEMPTION_PERIOD_SECONDS    how often pools are checked (default 10;
 *                                        0 turns the preemptor off)
 *   PELOTON_PREEMPTION_SUSTAINED_PERIODS periods in a row a pool must be over its
 *                                        entitlement before it is preempted from
 *                                        (default 3)
 *
 * Unset leaves the preemptor's own default.
 */
import type { Environment } from "@peloton/engine/environment";
import type { PreemptorTuning } from "../resmgr/preemptor-loop.ts";

export type PreemptionSettings = PreemptorTuning & { enabled?: boolean };

export function preemptionSettings(
  env: Pick<
    Environment,
    "PELOTON_PREEMPTION_PERIOD_SECONDS" | "PELOTON_PREEMPTION_SUSTAINED_PERIODS"
  >,
): PreemptionSettings {
  const out: PreemptionSettings = {};
  const period = env.PELOTON_PREEMPTION_PERIOD_SECONDS;
  if (period === 0) out.enabled = false;
  else if (period !== undefined) out.periodMs = Math.round(period * 1000);
  if (env.PELOTON_PREEMPTION_SUSTAINED_PERIODS !== undefined)
    out.sustainedPeriods = env.PELOTON_PREEMPTION_SUSTAINED_PERIODS;
  return out;
}
