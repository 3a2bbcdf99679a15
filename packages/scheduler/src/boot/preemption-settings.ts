/**
 * The preemptor's settings from the environment (`npm start`):
 *
 *   PELOTON_PREEMPTION_PERIOD_SECONDS    how often pools are checked (default 10;
 *                                        0 turns the preemptor off)
 *   PELOTON_PREEMPTION_SUSTAINED_PERIODS periods in a row a pool must be over its
 *                                        entitlement before it is preempted from
 *                                        (default 3)
 *
 * A value that is not one ends start-up with one line naming the variable
 * and the rule.
 */
import { StartupError } from "@peloton/storage/bootstrap";
import type { PreemptorTuning } from "../resmgr/preemptor-loop.ts";

export type PreemptionSettings = PreemptorTuning & { enabled?: boolean };

export function preemptionFromEnv(env: NodeJS.ProcessEnv = process.env): PreemptionSettings {
  const out: PreemptionSettings = {};
  const period = env.PELOTON_PREEMPTION_PERIOD_SECONDS?.trim();
  if (period) {
    const s = Number(period);
    if (!Number.isFinite(s) || s < 0)
      throw new StartupError(
        `PELOTON_PREEMPTION_PERIOD_SECONDS must be a number of seconds ≥ 0 (0 turns preemption off); got ${JSON.stringify(period)}`,
      );
    if (s === 0) out.enabled = false;
    else out.periodMs = Math.round(s * 1000);
  }
  const sustained = env.PELOTON_PREEMPTION_SUSTAINED_PERIODS?.trim();
  if (sustained) {
    const n = Number(sustained);
    if (!Number.isInteger(n) || n < 1)
      throw new StartupError(
        `PELOTON_PREEMPTION_SUSTAINED_PERIODS must be a whole number ≥ 1; got ${JSON.stringify(sustained)}`,
      );
    out.sustainedPeriods = n;
  }
  return out;
}
