/** Which actions apply to a job or an instance now, and the reason shown when one does not. */
import { describe, expect, it } from "vitest";
import { jobActionBlocks, taskActionBlocks } from "../src/components/jobs/action-blocks.ts";

describe("job actions", () => {
  const cases: {
    name: string;
    job: Parameters<typeof jobActionBlocks>[0];
    allowed: string[];
  }[] = [
    {
      name: "a running batch job: everything but start",
      job: { state: "RUNNING", goalState: "SUCCEEDED", type: "BATCH" },
      allowed: ["stop", "restart", "scale", "delete"],
    },
    {
      name: "a job being stopped: start (undo), restart, scale, delete",
      job: { state: "KILLING", goalState: "KILLED", type: "SERVICE" },
      allowed: ["start", "restart", "scale", "delete"],
    },
    {
      name: "a stopped job: start, not stop",
      job: { state: "KILLED", goalState: "KILLED", type: "SERVICE" },
      allowed: ["start", "restart", "scale", "delete"],
    },
    {
      name: "a daemon job is never scaled by hand",
      job: { state: "RUNNING", goalState: "RUNNING", type: "DAEMON" },
      allowed: ["stop", "restart", "delete"],
    },
    {
      name: "a job being deleted: nothing",
      job: { state: "KILLING", goalState: "DELETED", type: "BATCH" },
      allowed: [],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const blocks = jobActionBlocks(c.job);
      const allowed = Object.entries(blocks)
        .filter(([, why]) => why === undefined)
        .map(([action]) => action);
      expect(allowed.sort()).toEqual([...c.allowed].sort());
      for (const why of Object.values(blocks)) if (why) expect(why).toMatch(/^(the|a) /);
    });
});

describe("instance actions", () => {
  it("a succeeded batch instance stays done: restart only, saying why start does not apply", () => {
    const b = taskActionBlocks({
      state: "SUCCEEDED",
      goalState: "SUCCEEDED",
      job: { type: "BATCH" },
    });
    expect(b.stop).toBe("its run has ended (SUCCEEDED)");
    expect(b.start).toMatch(/stays done/);
    expect(b.restart).toBeUndefined();
  });

  it("a running service instance: stop and restart", () => {
    const b = taskActionBlocks({
      state: "RUNNING",
      goalState: "RUNNING",
      job: { type: "SERVICE" },
    });
    expect(b).toEqual({ stop: undefined, start: "it is not stopped", restart: undefined });
  });

  it("a killed instance can be started again", () => {
    const b = taskActionBlocks({ state: "KILLED", goalState: "KILLED", job: { type: "BATCH" } });
    expect(b.start).toBeUndefined();
  });
});
