/**
 * Gangs are all or nothing: every member is placed tentatively; if one does
 * not fit, all are undone and each is reported GANG_INCOMPLETE with how many
 * fit. Each case draws its hosts.
 */
import { describe, expect, it } from "vitest";
import { describeUnplaced } from "../src/index.ts";
import { host, task } from "./support/placement-builders.ts";
import { place } from "./support/placement-run.ts";

describe("gangs", () => {
  it("a gang that fits is placed whole", () => {
    //   h1  cpu 8;  h2  cpu 8   — gang of three 4-cpu tasks
    const gang = ["a", "b", "c"].map((id) => task(id).cpu(4).gang("g"));
    const r = place([host("h1"), host("h2")], gang);
    expect(r.placements.map((p) => p.taskId)).toEqual(["a", "b", "c"]);
    expect(r.unplaced).toEqual([]);
  });

  it("a gang that does not fit places nothing, and says how many would have", () => {
    //   h1  cpu 8   — gang of three 4-cpu tasks: a and b fit, c does not
    const r = place(
      [host("h1")],
      ["a", "b", "c"].map((id) => task(id).cpu(4).gang("g")),
    );
    expect(r.placements).toEqual([]);
    expect(r.unplaced.map((u) => [u.taskId, u.reason, u.gang])).toEqual([
      ["a", "GANG_INCOMPLETE", { gangId: "g", size: 3, fitting: 2, memberFit: true }],
      ["b", "GANG_INCOMPLETE", { gangId: "g", size: 3, fitting: 2, memberFit: true }],
      ["c", "GANG_INCOMPLETE", { gangId: "g", size: 3, fitting: 2, memberFit: false }],
    ]);
    expect(r.unplacedOf("a").rejections).toEqual({});
    expect(r.unplacedOf("c").rejections).toEqual({ INSUFFICIENT_CPU: 1 });
    expect(describeUnplaced(r.unplacedOf("a"))).toBe(
      "its gang g starts only whole and 2 of 3 tasks fit; this task would fit",
    );
    expect(describeUnplaced(r.unplacedOf("c"))).toBe(
      "its gang g starts only whole and 2 of 3 tasks fit; this task: no host fits: 1 host lacks 4 cpu",
    );
  });

  it("what an undone gang held goes to the tasks after it", () => {
    //   h1  cpu 8, ports 31000–31001, zone a
    //   gang g: a (8 cpu, 2 ports, label app=x) fits, b (1 cpu) does not → undone
    //   then t (8 cpu, 2 ports, no task app=x on the host) fits on h1
    const r = place(
      [host("h1").ports([31000, 31001])],
      [
        task("a").cpu(8).ports(2).label("app", "x").gang("g"),
        task("b").cpu(1).gang("g"),
        task("t")
          .cpu(8)
          .ports(2)
          .constraint({
            type: "LABEL_CONSTRAINT",
            kind: "TASK",
            label: { key: "app", value: "x" },
            condition: "EQUAL",
            requirement: 0,
          }),
      ],
    );
    expect(r.placement("t")).toMatchObject({
      hostname: "h1",
      ports: { static: [], dynamic: [31000, 31001] },
    });
  });

  it("gangs are placed in the order of their first task; members keep their order", () => {
    //   h1  cpu 8   — g1 = [x1, x2] (3 cpu each) comes first though x2 is listed after y
    //   y (4 cpu) then finds only 2 cpu left
    const r = place(
      [host("h1")],
      [task("x1").cpu(3).gang("g1"), task("y").cpu(4), task("x2").cpu(3).gang("g1")],
    );
    expect(r.placements.map((p) => p.taskId)).toEqual(["x1", "x2"]);
    expect(r.unplacedOf("y").rejections).toEqual({ INSUFFICIENT_CPU: 1 });
  });

  it("a gang of one is a plain task: NO_HOST_FITS, not GANG_INCOMPLETE", () => {
    const r = place([host("h1")], [task("a").cpu(9).gang("solo")]);
    expect(r.unplacedOf("a")).toMatchObject({ reason: "NO_HOST_FITS" });
    expect(r.unplacedOf("a").gang).toBeUndefined();
  });
});
