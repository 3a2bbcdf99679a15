/** A DAEMON job's instances follow its eligible hosts. */
import { describe, expect, it } from "vitest";
import { daemonInstancesFor } from "../src/index.ts";

describe("daemonInstancesFor", () => {
  it("one instance per eligible host, new numbers after the highest", () => {
    expect(daemonInstancesFor(["h2", "h1", "h3"], [{ instance: 0, host: "h2" }])).toEqual({
      add: [
        { instance: 1, host: "h1" },
        { instance: 2, host: "h3" },
      ],
      stop: [],
      keep: [{ instance: 0, host: "h2" }],
    });
  });

  it("a host that left (or is no longer eligible) loses its instance", () => {
    expect(
      daemonInstancesFor(
        ["h1"],
        [
          { instance: 0, host: "h1" },
          { instance: 1, host: "h2" },
        ],
      ),
    ).toEqual({
      add: [],
      stop: [{ instance: 1, host: "h2", why: "HOST_NOT_ELIGIBLE" }],
      keep: [{ instance: 0, host: "h1" }],
    });
  });

  it("two instances on one host: the lower number stays", () => {
    const plan = daemonInstancesFor(
      ["h1"],
      [
        { instance: 4, host: "h1" },
        { instance: 2, host: "h1" },
      ],
    );
    expect(plan.keep).toEqual([{ instance: 2, host: "h1" }]);
    expect(plan.stop).toEqual([{ instance: 4, host: "h1", why: "DUPLICATE_ON_HOST" }]);
  });

  it("numbers of stopped instances are not reused", () => {
    // Instances 0–6 existed; only 3 still runs. The first free number is 7.
    expect(daemonInstancesFor(["a", "b"], [{ instance: 3, host: "a" }], 7).add).toEqual([
      { instance: 7, host: "b" },
    ]);
  });

  it("no hosts, no instances", () => {
    expect(daemonInstancesFor([], [])).toEqual({ add: [], stop: [], keep: [] });
  });
});
