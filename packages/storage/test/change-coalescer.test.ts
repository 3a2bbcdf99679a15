import { ManualClock } from "@peloton/test-support/storage/manual-clock.ts";
import { describe, expect, it } from "vitest";
import { type Change, MAX_KEYS_PER_CHANGE } from "../src/live/change.ts";
import { ChangeCoalescer } from "../src/live/change-coalescer.ts";

function coalescer() {
  const clock = new ManualClock();
  const delivered: Change[] = [];
  const c = new ChangeCoalescer({ coalesceMs: 100, leadMs: 25, clock }, (change) =>
    delivered.push(change),
  );
  return { clock, delivered, c };
}

describe("ChangeCoalescer", () => {
  it("delivers a change on a quiet feed after the lead window, with those that came along", async () => {
    const { clock, delivered, c } = coalescer();
    c.add({ topic: "tasks", keys: ["j/0"] });
    await clock.advance(24);
    c.add({ topic: "tasks", keys: ["j/1", "j/0"] });
    c.add({ topic: "jobs", keys: ["j"] });
    expect(delivered).toEqual([]);
    await clock.advance(1);
    expect(delivered).toEqual([
      { topic: "tasks", keys: ["j/0", "j/1"] },
      { topic: "jobs", keys: ["j"] },
    ]);
  });

  it("delivers a busy feed at most once per coalescing window", async () => {
    const { clock, delivered, c } = coalescer();
    c.add({ topic: "jobs", keys: ["a"] });
    await clock.advance(25); // delivered at 25
    c.add({ topic: "jobs", keys: ["b"] });
    await clock.advance(99); // 124: the next may go at 125
    expect(delivered).toHaveLength(1);
    await clock.advance(1);
    expect(delivered).toEqual([
      { topic: "jobs", keys: ["a"] },
      { topic: "jobs", keys: ["b"] },
    ]);
    await clock.advance(1_000); // quiet again: the lead window, not the full one
    c.add({ topic: "jobs", keys: ["c"] });
    await clock.advance(25);
    expect(delivered).toHaveLength(3);
  });

  it("turns a topic into 'refetch all' past the key limit or when told so", async () => {
    const { clock, delivered, c } = coalescer();
    c.add({ topic: "tasks", keys: Array.from({ length: MAX_KEYS_PER_CHANGE }, (_, i) => `t${i}`) });
    c.add({ topic: "tasks", keys: ["one-more"] });
    c.add({ topic: "pools", keys: null });
    c.add({ topic: "pools", keys: ["p"] });
    await clock.advance(25);
    expect(delivered).toEqual([
      { topic: "tasks", keys: null },
      { topic: "pools", keys: null },
    ]);
  });

  it("delivers nothing once stopped", async () => {
    const { clock, delivered, c } = coalescer();
    c.add({ topic: "jobs", keys: ["a"] });
    c.stop();
    await clock.advance(1_000);
    expect(delivered).toEqual([]);
    expect(clock.timers).toBe(0);
  });
});
