import { describe, expect, it } from "vitest";
import { retryTransientConflicts, retryWaitMs } from "../src/retry.ts";

/** What adapter-pg hands Prisma for a deadlock, as Prisma wraps it. */
const deadlock = () =>
  Object.assign(new Error("Raw query failed. Code: `40P01`. Message: `deadlock detected`"), {
    code: "P2010",
    meta: {
      driverAdapterError: { cause: { kind: "TransactionWriteConflict", originalCode: "40P01" } },
    },
  });
const serialization = () => Object.assign(new Error("could not serialize"), { code: "40001" });

describe("retryTransientConflicts", () => {
  it("runs again after deadlocks and serialization failures, waiting jittered, growing waits", async () => {
    const waits: number[] = [];
    const errors = [deadlock(), serialization(), deadlock()];
    let calls = 0;
    const result = await retryTransientConflicts(
      async () => {
        calls++;
        const err = errors.shift();
        if (err) throw err;
        return "done";
      },
      { random: () => 0.5, sleep: async (ms) => void waits.push(ms), baseMs: 20, maxMs: 500 },
    );
    expect(result).toBe("done");
    expect(calls).toBe(4);
    // Half of the cap each time: 20, 40, 80 → 10, 20, 40.
    expect(waits).toEqual([10, 20, 40]);
  });

  it("gives up after the attempts and throws the last error", async () => {
    let calls = 0;
    await expect(
      retryTransientConflicts(
        async () => {
          calls++;
          throw deadlock();
        },
        { attempts: 3, sleep: async () => {} },
      ),
    ).rejects.toThrow(/40P01/);
    expect(calls).toBe(3);
  });

  it("does not retry other errors", async () => {
    let calls = 0;
    await expect(
      retryTransientConflicts(
        async () => {
          calls++;
          throw Object.assign(new Error("duplicate key"), { code: "23505" });
        },
        { sleep: async () => {} },
      ),
    ).rejects.toThrow("duplicate key");
    expect(calls).toBe(1);
  });

  it("caps the wait at maxMs", () => {
    // Cap for the 10th retry: min(500, 20 · 2^9) = 500; random 0.999 → 499.
    expect(retryWaitMs(10, { random: () => 0.999 })).toBe(499);
    expect(retryWaitMs(1, { random: () => 0 })).toBe(0);
  });
});
