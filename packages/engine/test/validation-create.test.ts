/** Pool rules on create (peloton-semantics.md §2), one named case per rule. Tree: support/validation-fixture.ts. */
import { describe, expect, it } from "vitest";
import { validateCreate } from "../src/index.ts";
import { pool, treeOf } from "./support/builders.ts";
import {
  checkCase,
  config,
  cpu,
  create,
  snapshot,
  type ValidationCase,
} from "./support/validation-fixture.ts";

const cases: ValidationCase[] = [
  // create <path> <file>
  {
    name: "create: a valid pool",
    run: create("/infra/ml", config("ml", [cpu(30, 50)])),
    codes: [],
  },
  {
    name: "create: kinds left out get reservation 0 and limit 0, which always fit",
    run: create("/research/x", config("x", [])),
    codes: [],
  },
  {
    name: "create: the path must be well formed",
    run: create("infra/ml", config("ml", [])),
    codes: ["INVALID_PATH"],
    says: 'path "infra/ml" should begin with /',
  },
  {
    name: "create: the file's name is the path's last segment",
    run: create("/infra/ml", config("ai", [])),
    codes: ["NAME_MISMATCH_PATH"],
  },
  {
    name: "create: the file names no parent",
    run: create("/infra/ml", config("ml", [], { parent: "/research" })),
    codes: ["PARENT_IN_CONFIG"],
  },
  // Rule 1
  {
    name: "rule 1: the root is never created",
    run: create("/", config("", [])),
    codes: ["ROOT_IMMUTABLE"],
  },
  {
    name: "rule 1: unknown kind",
    run: create("/infra/ml", config("ml", [{ kind: "aaa", reservation: 5, limit: 10, share: 2 }])),
    codes: ["UNKNOWN_KIND"],
    says: '/infra/ml: unknown resource kind "aaa" (expected cpu, gpu, memory or disk)',
  },
  {
    name: "rule 1: a kind listed twice",
    run: create("/infra/ml", config("ml", [cpu(5, 10, 2), cpu(6, 10, 2)])),
    codes: ["DUPLICATE_KIND"],
  },
  {
    name: "rule 1: negative reservation",
    run: create("/infra/ml", config("ml", [cpu(-5, 10, 2)])),
    codes: ["NEGATIVE_RESERVATION"],
    says: "/infra/ml cpu: reservation -5 is negative",
  },
  {
    name: "rule 1: negative share",
    run: create("/infra/ml", config("ml", [cpu(5, 10, -1)])),
    codes: ["NEGATIVE_SHARE"],
  },
  {
    name: "rule 1: reservation above the limit",
    run: create("/infra/ml", config("ml", [cpu(30, 10, 2)])),
    codes: ["RESERVATION_EXCEEDS_LIMIT"],
    says: "/infra/ml cpu: reservation 30 exceeds its limit 10",
  },
  {
    name: "rule 1: numbers must be finite",
    run: create("/infra/ml", config("ml", [cpu(Number.NaN, 10)])),
    codes: ["NOT_A_NUMBER"],
  },
  // Rule 3
  {
    name: "rule 3: the parent exists (later rules are skipped)",
    run: create("/nope/ml", config("ml", [cpu(500, 1000)])),
    codes: ["PARENT_NOT_FOUND"],
  },
  {
    name: "rule 3: the limit is at most the parent's",
    run: create("/infra/ml", config("ml", [cpu(0, 99999)])),
    codes: ["LIMIT_EXCEEDS_PARENT_LIMIT"],
    says: "/infra/ml cpu: limit 99999 exceeds the parent /infra's limit 80",
  },
  {
    name: "rule 3: the root's limit is the cluster capacity",
    run: create("/ml", config("ml", [{ kind: "gpu", reservation: 0, limit: 8, share: 1 }])),
    codes: ["LIMIT_EXCEEDS_PARENT_LIMIT"],
    says: "/ml gpu: limit 8 exceeds the root (the cluster capacity)'s limit 4",
  },
  // Rule 4
  {
    name: "rule 4: the name is unique among siblings",
    run: create("/infra/batch", config("batch", [])),
    codes: ["NAME_NOT_UNIQUE"],
    says: '/infra/batch: /infra already has a pool named "batch"',
  },
  // Rule 5
  {
    name: "rule 5: the siblings' reservations plus this one fit in the parent's",
    run: create("/infra/ml", config("ml", [cpu(31, 50)])),
    codes: ["CHILDREN_RESERVATION_EXCEEDS_PARENT"],
    // 50 − (20 + 0) = 30 left.
    // 31 + 20 − 50 = 1 too much.
    says: "/infra/ml cpu: reservation 31 (with its sibling pools' 20, 51) exceeds the parent /infra's reservation 50 by 1",
  },
  {
    name: "rule 5: the root's reservation is the cluster capacity",
    run: create("/ml", config("ml", [cpu(41, 50)])),
    codes: ["CHILDREN_RESERVATION_EXCEEDS_PARENT"],
    // 41 + (50 + 10) − 100 = 1 too much.
    says: "/ml cpu: reservation 41 (with its sibling pools' 60, 101) exceeds the root (the cluster capacity)'s reservation 100 by 1",
  },
  {
    name: "rule 5: sums are compared with ε (0.1 + 0.2 fits in 0.3)",
    run: () =>
      validateCreate(
        {
          tree: treeOf([
            pool("/a").reserve({ cpu: 0.3 }).limit(1),
            pool("/a/b").reserve({ cpu: 0.1 }).limit(1),
          ]),
          capacity: { cpu: 1, gpu: 0, memory: 0, disk: 0 },
        },
        { path: "/a/c", config: config("c", [cpu(0.2, 1)]) },
      ),
    codes: [],
  },
  // Rule 6
  {
    name: "rule 6: controllerLimit.maxPercent at most 100",
    run: create("/infra/ml", config("ml", [], { controllerLimitMaxPercent: 200 })),
    codes: ["CONTROLLER_LIMIT_OVER_100"],
  },
  {
    name: "rule 6: 10 percent is fine",
    run: create("/infra/ml", config("ml", [], { controllerLimitMaxPercent: 10 })),
    codes: [],
  },
  {
    name: "independent problems all come back, in rule order",
    run: create(
      "/infra/ml",
      config("ml", [cpu(5, 10, -1), { kind: "memory", reservation: 9, limit: 1 }], {
        controllerLimitMaxPercent: 101,
      }),
    ),
    codes: [
      "NEGATIVE_SHARE",
      "RESERVATION_EXCEEDS_LIMIT",
      "LIMIT_EXCEEDS_PARENT_LIMIT",
      "CHILDREN_RESERVATION_EXCEEDS_PARENT",
      "CONTROLLER_LIMIT_OVER_100",
    ],
  },
];

describe("pool validation: create", () => {
  it.each(cases)("$name", checkCase);

  it("errors carry the kind, the field and both numbers", () => {
    const [e] = validateCreate(snapshot, {
      path: "/infra/ml",
      config: config("ml", [cpu(31, 50)]),
    });
    expect(e).toEqual({
      code: "CHILDREN_RESERVATION_EXCEEDS_PARENT",
      pool: "/infra/ml",
      kind: "cpu",
      field: "resources.cpu.reservation",
      values: {
        reservation: 31,
        parentReservation: 50,
        siblingsReservation: 20,
        shortfall: 1, // 31 + 20 − 50
        parent: "/infra",
      },
    });
  });
});
