/**
 * The pool rules that keep jobs and children from being stranded, and their
 * numbers (issue 14, "Pool rules"):
 *
 *   /            capacity cpu 100, memory 1000, disk 1000, gpu 4
 *   ├─ a         cpu 6/20    (reservation/limit)
 *   │  ├─ x      cpu 4/20
 *   │  └─ y      cpu 2/10
 *   ├─ busy      cpu 0/10    (a leaf with 5 jobs)
 *   └─ lean      cpu 2/10    (was lowered below what a child would need)
 *
 * Other kinds: reservation 0, limit 0.
 */
import { describe, expect, it } from "vitest";
import {
  describeValidationError,
  type PoolConfigInput,
  type PoolValidationError,
  validateCreate,
  validateMove,
  validateUpdate,
} from "../src/index.ts";
import { pool, treeOf } from "./support/builders.ts";
import { config, cpu } from "./support/validation-fixture.ts";

const zero = { gpu: 0, memory: 0, disk: 0 };
const snapshot = {
  tree: treeOf([
    pool("/a")
      .reserve({ cpu: 6 })
      .limit({ cpu: 20, ...zero }),
    pool("/a/x")
      .reserve({ cpu: 4 })
      .limit({ cpu: 20, ...zero }),
    pool("/a/y")
      .reserve({ cpu: 2 })
      .limit({ cpu: 10, ...zero }),
    pool("/busy").limit({ cpu: 10, ...zero }),
    pool("/lean")
      .reserve({ cpu: 2 })
      .limit({ cpu: 10, ...zero }),
    pool("/lean/kid")
      .reserve({ cpu: 0 })
      .limit({ cpu: 10, ...zero }),
  ]),
  capacity: { cpu: 100, memory: 1000, disk: 1000, gpu: 4 },
};

const busyJobs = { count: 5, names: ["web", "batch-1", "etl"] };

interface Case {
  name: string;
  run: () => PoolValidationError[];
  /** Every error's sentence, in order. */
  says: string[];
}

const update = (path: string, c: PoolConfigInput) => () =>
  validateUpdate(snapshot, { path, config: c });

const cases: Case[] = [
  {
    name: "a parent may not go below its children's reservations (with the numbers)",
    run: update("/a", config("a", [cpu(4, 20)])),
    // 4 + 2 = 6 > 4
    says: [
      "/a cpu: reservation 4 is below its children's reservations 6 (/a/x 4 + /a/y 2); lower theirs first",
    ],
  },
  {
    name: "a parent exactly at its children's sum is fine",
    run: update("/a", config("a", [cpu(6, 20)])),
    says: [],
  },
  {
    name: "a parent's limit may not go below a child's limit",
    run: update("/a", config("a", [cpu(6, 15)])),
    says: ["/a cpu: limit 15 is below the limit of its child pool /a/x 20; lower theirs first"],
  },
  {
    name: "a child of a parent already too small is told the real shortfall, not '0 left'",
    // /lean reserves 2; raising /lean/kid to 4 is 2 too much.
    run: update("/lean/kid", config("kid", [cpu(4, 10)])),
    says: ["/lean/kid cpu: reservation 4 exceeds the parent /lean's reservation 2 by 2"],
  },
  {
    name: "with siblings, the sentence adds them up",
    // 3 + 4 (x) = 7 > 6: 1 short.
    run: update("/a/y", config("y", [cpu(3, 10)])),
    says: [
      "/a/y cpu: reservation 3 (with its sibling pools' 4, 7) exceeds the parent /a's reservation 6 by 1",
    ],
  },
  {
    name: "a child under a pool with jobs is refused, naming a few jobs and the count",
    run: () =>
      validateCreate(snapshot, {
        path: "/busy/sub",
        config: config("sub", [cpu(0, 5)]),
        parentJobs: busyJobs,
      }),
    says: [
      "/busy/sub: /busy has 5 jobs (web, batch-1, etl and 2 more); jobs run in leaf pools only, so a pool with jobs cannot get a child pool (its jobs would wait forever): delete them first or choose another parent",
    ],
  },
  {
    name: "a child under an idle leaf is fine",
    run: () =>
      validateCreate(snapshot, {
        path: "/busy/sub",
        config: config("sub", [cpu(0, 5)]),
        parentJobs: { count: 0 },
      }),
    says: [],
  },
  {
    name: "moving a pool under a pool with jobs would strand them too",
    run: () =>
      validateMove(snapshot, {
        path: "/lean/kid",
        newParentPath: "/busy",
        newParentJobs: { count: 1, names: ["web"] },
      }),
    says: [
      "/lean/kid: /busy has 1 job (web); jobs run in leaf pools only, so a pool with jobs cannot get a child pool (its jobs would wait forever): delete them first or choose another parent",
    ],
  },
];

describe("pool rules: children, jobs and shortfalls", () => {
  it.each(cases)("$name", (c) => {
    expect(c.run().map(describeValidationError)).toEqual(c.says);
  });

  it("the error carries the children and the numbers as data", () => {
    const [e] = update("/a", config("a", [cpu(4, 20)]))();
    expect(e).toEqual({
      code: "RESERVATION_BELOW_CHILDREN",
      pool: "/a",
      kind: "cpu",
      field: "resources.cpu.reservation",
      values: {
        reservation: 4,
        childrenReservation: 6,
        children: [
          { path: "/a/x", reservation: 4 },
          { path: "/a/y", reservation: 2 },
        ],
        moreChildren: 0,
      },
    });
  });
});
