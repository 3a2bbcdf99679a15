/** The preemptor's settings from the environment: defaults, values, off, and refusals naming the variable. */

import { type RawEnvironment, readEnvironment } from "@peloton/engine/environment";
import { describe, expect, it } from "vitest";
import { preemptionSettings } from "../src/boot/preemption-settings.ts";

/** What the launcher does: the environment's schema reads, then the settings. */
const preemptionFromEnv = (env: RawEnvironment) =>
  preemptionSettings(
    readEnvironment(env, [
      "PELOTON_PREEMPTION_PERIOD_SECONDS",
      "PELOTON_PREEMPTION_SUSTAINED_PERIODS",
    ]),
  );

describe("preemption settings from the environment", () => {
  it("leaves the defaults when nothing is set", () => {
    expect(preemptionFromEnv({})).toEqual({});
    expect(preemptionFromEnv({ PELOTON_PREEMPTION_PERIOD_SECONDS: " " })).toEqual({});
  });

  it("takes a period in seconds and a sustained count; 0 s turns the preemptor off", () => {
    expect(
      preemptionFromEnv({
        PELOTON_PREEMPTION_PERIOD_SECONDS: "2.5",
        PELOTON_PREEMPTION_SUSTAINED_PERIODS: "5",
      }),
    ).toEqual({ periodMs: 2500, sustainedPeriods: 5 });
    expect(preemptionFromEnv({ PELOTON_PREEMPTION_PERIOD_SECONDS: "0" })).toEqual({
      enabled: false,
    });
  });

  it.each([
    [
      { PELOTON_PREEMPTION_PERIOD_SECONDS: "ten" },
      'PELOTON_PREEMPTION_PERIOD_SECONDS must be a number of seconds ≥ 0 (0 turns preemption off) (got "ten")',
    ],
    [
      { PELOTON_PREEMPTION_PERIOD_SECONDS: "-1" },
      'PELOTON_PREEMPTION_PERIOD_SECONDS must be a number of seconds ≥ 0 (0 turns preemption off) (got "-1")',
    ],
    [
      { PELOTON_PREEMPTION_SUSTAINED_PERIODS: "0" },
      'PELOTON_PREEMPTION_SUSTAINED_PERIODS must be a whole number ≥ 1 (got "0")',
    ],
    [
      { PELOTON_PREEMPTION_SUSTAINED_PERIODS: "1.5" },
      'PELOTON_PREEMPTION_SUSTAINED_PERIODS must be a whole number ≥ 1 (got "1.5")',
    ],
  ])("refuses %o", (env, message) => {
    expect(() => preemptionFromEnv(env)).toThrow(message);
  });
});
