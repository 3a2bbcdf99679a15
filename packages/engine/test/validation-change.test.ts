/** Pool rules on update, move and delete (peloton-semantics.md §2). Tree: support/validation-fixture.ts. */
import { describe, it } from "vitest";
import {
  checkCase,
  config,
  cpu,
  move,
  remove,
  update,
  type ValidationCase,
} from "./support/validation-fixture.ts";

const cases: ValidationCase[] = [
  // update <path> <file>
  {
    name: "update: the pool's own old reservation does not count against it",
    run: update("/infra/batch", config("batch", [cpu(50, 50)])),
    codes: [],
  },
  {
    name: "update: raising it past what the parent has left",
    run: update("/infra/batch", config("batch", [cpu(51, 51)])),
    // 51 > 50 − (0 from web); its old 20 no longer counts.
    codes: ["CHILDREN_RESERVATION_EXCEEDS_PARENT"],
  },
  {
    name: "update: the parent does not change",
    run: update("/infra/batch", config("batch", [], { parent: "/research" })),
    codes: ["PARENT_CHANGED"],
  },
  {
    name: "update: naming the same parent is fine",
    run: update("/infra/batch", config("batch", [], { parent: "/infra" })),
    codes: [],
  },
  {
    name: "rule 2: a pool is not its own parent",
    run: update("/infra/batch", config("batch", [], { parent: "/infra/batch" })),
    codes: ["PARENT_IS_SELF"],
  },
  {
    name: "update: renaming onto a sibling's name",
    run: update("/infra/batch", config("web", [])),
    codes: ["NAME_NOT_UNIQUE"],
  },
  {
    name: "update: the root is never updated",
    run: update("/", config("", [])),
    codes: ["ROOT_IMMUTABLE"],
  },
  {
    name: "update: the pool exists",
    run: update("/infra/x", config("x", [])),
    codes: ["POOL_NOT_FOUND"],
  },
  // move
  { name: "move: to another parent with room", run: move("/infra/web", "/research"), codes: [] },
  {
    name: "rule 2: moving under one's own descendant",
    run: move("/infra", "/infra/batch"),
    codes: ["PARENT_IS_DESCENDANT"],
  },
  {
    name: "rule 2: moving under oneself",
    run: move("/infra", "/infra"),
    codes: ["PARENT_IS_SELF"],
  },
  {
    name: "move: the new parent's reservation must hold it",
    run: move("/infra/batch", "/research"),
    codes: ["CHILDREN_RESERVATION_EXCEEDS_PARENT"],
  },
  {
    name: "move: to a missing parent",
    run: move("/infra/web", "/nope"),
    codes: ["PARENT_NOT_FOUND"],
  },
  // delete
  { name: "delete: an idle leaf", run: remove("/infra/web"), codes: [] },
  {
    name: "delete: only a leaf",
    run: remove("/infra"),
    codes: ["NOT_LEAF"],
    says: "/infra: it has 2 child pools; only a leaf pool can be deleted",
  },
  {
    name: "delete: not while jobs, allocation or demand remain",
    run: remove("/infra/batch", { jobs: 1, allocation: { cpu: 2 }, demand: { memory: 512 } }),
    codes: ["BUSY"],
    says: "/infra/batch: busy (1 job, allocation 2 cpu, demand 512 MB memory); only an idle pool can be deleted",
  },
  {
    name: "delete: allocation within ε of zero counts as idle",
    run: remove("/infra/batch", { allocation: { cpu: 0.0001 } }),
    codes: [],
  },
  { name: "delete: never the root", run: remove("/"), codes: ["ROOT_IMMUTABLE"] },
  { name: "delete: the pool exists", run: remove("/nope"), codes: ["POOL_NOT_FOUND"] },
];

describe("pool validation: update, move, delete", () => {
  it.each(cases)("$name", checkCase);
});
