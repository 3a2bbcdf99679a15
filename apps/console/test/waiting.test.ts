import { describe, expect, it } from "vitest";
import { QUEUE_PLACE, waitingWhy } from "../src/lib/waiting";

describe("a waiting task's message", () => {
  const inLine =
    "12th in pool /infra/e2e-small's pending queue: pool /infra/e2e-small is at its cpu entitlement";

  it("reads as its why, without the place in line", () => {
    expect(waitingWhy(inLine)).toBe("pool /infra/e2e-small is at its cpu entitlement");
    expect(QUEUE_PLACE.exec(inLine)?.slice(1, 4)).toEqual(["12th", "/infra/e2e-small", "pending"]);
  });

  it("is kept whole when it names no place in line", () => {
    expect(waitingWhy("no host has room for 4 cpu")).toBe("no host has room for 4 cpu");
  });

  it("says when nobody has looked at the task yet", () => {
    expect(waitingWhy(null)).toBe("not yet looked at by the resource manager");
  });
});
