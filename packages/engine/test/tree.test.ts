/**
 *   /
 *   ├─ infra
 *   │  ├─ batch
 *   │  └─ services
 *   └─ research
 */
import { describe, expect, it } from "vitest";
import {
  aggregateUp,
  aggregateUsage,
  ancestorsOf,
  buildPoolTree,
  calculateEntitlement,
  describeTreeBuildError,
  entitlementInputFromTree,
  entitlementOf,
  findPool,
  findPoolById,
  isLeafPool,
  listPools,
  type PoolRecord,
  walkPools,
} from "../src/index.ts";
import { pool, treeOf } from "./support/builders.ts";

const pools = [pool("/infra"), pool("/infra/batch"), pool("/infra/services"), pool("/research")];

describe("building the pool tree", () => {
  const tree = treeOf(pools);

  it("looks pools up by path and by id", () => {
    expect(findPool(tree, "/infra/batch")?.name).toBe("batch");
    expect(findPool(tree, "/")).toBe(tree.root);
    expect(findPool(tree, "/nope")).toBeUndefined();
    expect(findPoolById(tree, "/research")?.path).toBe("/research");
  });

  it("keeps children in creation order", () => {
    expect(tree.root.children.map((c) => c.name)).toEqual(["infra", "research"]);
    expect(findPool(tree, "/infra")!.children.map((c) => c.name)).toEqual(["batch", "services"]);
  });

  it("walks depth first, parents before children", () => {
    const seen: string[] = [];
    walkPools(tree, (n) => {
      seen.push(n.path);
      return n.path !== "/infra/batch";
    });
    expect(seen).toEqual(["/", "/infra", "/infra/batch", "/infra/services", "/research"]);
    expect(listPools(tree).map((n) => n.depth)).toEqual([1, 2, 2, 1]);
  });

  it("a false from the visitor skips the subtree", () => {
    const seen: string[] = [];
    walkPools(tree, (n) => {
      seen.push(n.path);
      return n.path !== "/infra";
    });
    expect(seen).toEqual(["/", "/infra", "/research"]);
  });

  it("knows leaves and ancestors", () => {
    const batch = findPool(tree, "/infra/batch")!;
    expect(isLeafPool(batch)).toBe(true);
    expect(isLeafPool(findPool(tree, "/infra")!)).toBe(false);
    expect(ancestorsOf(batch).map((n) => n.path)).toEqual(["/infra", "/"]);
  });

  it("accepts a parent listed after its child (a moved pool)", () => {
    const [infra, batch] = [pool("/infra").record(), pool("/infra/batch").record()];
    const built = buildPoolTree([batch, infra]);
    expect(built.ok && built.tree.byPath.get("/infra")?.children.length).toBe(1);
  });
});

describe("tree build errors", () => {
  const rec = (over: Partial<PoolRecord> & { id: string }): PoolRecord => ({
    ...pool("/x").record(),
    ...over,
  });
  it.each([
    {
      name: "unknown parent",
      records: [rec({ id: "a", path: "/q/a", name: "a", parentId: "q" })],
      code: "PARENT_NOT_FOUND",
    },
    {
      name: "path not parent's path plus name",
      records: [
        rec({ id: "a", path: "/a", name: "a" }),
        rec({ id: "b", path: "/b", name: "b", parentId: "a" }),
      ],
      code: "PATH_MISMATCH",
    },
    {
      name: "two pools with one path",
      records: [rec({ id: "a", path: "/a", name: "a" }), rec({ id: "b", path: "/a", name: "a" })],
      code: "DUPLICATE_PATH",
    },
    {
      name: "a cycle of parents",
      records: [
        rec({ id: "a", path: "/b/a", name: "a", parentId: "b" }),
        rec({ id: "b", path: "/a/b", name: "b", parentId: "a" }),
      ],
      code: "CYCLE",
    },
    {
      name: "the root as a record",
      records: [rec({ id: "r", path: "/", name: "" })],
      code: "ROOT_RECORD",
    },
    {
      name: "the same id twice",
      records: [rec({ id: "a", path: "/a", name: "a" }), rec({ id: "a", path: "/b", name: "b" })],
      code: "DUPLICATE_ID",
    },
  ])("$name → $code", ({ records, code }) => {
    const built = buildPoolTree(records);
    expect(built.ok).toBe(false);
    if (!built.ok) {
      expect(built.errors.map((e) => e.code)).toContain(code);
      for (const e of built.errors) expect(describeTreeBuildError(e)).toMatch(/\S/);
    }
  });
});

describe("aggregating demand and allocation up the tree", () => {
  const tree = treeOf(pools);
  const usage = new Map([
    ["/infra/batch", { demand: { cpu: 4 }, allocation: { memory: 100 } }],
    ["/infra/services", { demand: { cpu: 6 }, slackDemand: { cpu: 1 } }],
    ["/research", { demand: { cpu: 1 }, slackAllocation: { disk: 5 } }],
    // A parent's own value is replaced by its children's sum, as in Peloton.
    ["/infra", { demand: { cpu: 1000 } }],
  ]);

  it("a parent's demand is the sum of its children's", () => {
    const demand = aggregateUp(tree, (n) => usage.get(n.path)?.demand);
    // /infra = 4 + 6; / = 10 + 1.
    expect(demand.get("/infra")?.cpu).toBe(10);
    expect(demand.get("/")?.cpu).toBe(11);
    expect(demand.get("/infra/batch")?.cpu).toBe(4);
  });

  it("all four amounts at once", () => {
    const all = aggregateUsage(tree, usage);
    expect(all.get("/")).toEqual({
      demand: { cpu: 11, gpu: 0, memory: 0, disk: 0 },
      allocation: { cpu: 0, gpu: 0, memory: 100, disk: 0 },
      slackDemand: { cpu: 1, gpu: 0, memory: 0, disk: 0 },
      slackAllocation: { cpu: 0, gpu: 0, memory: 0, disk: 5 },
    });
  });
});

describe("from a stored tree to the calculator", () => {
  it("records in any order become a parents-first input", () => {
    const records = [
      pool("/a/x").demand({ cpu: 5 }).record(),
      pool("/b").record(),
      pool("/a").record(),
    ];
    const built = buildPoolTree(records);
    if (!built.ok) throw new Error("tree");
    const input = entitlementInputFromTree(
      built.tree,
      { capacity: { cpu: 10 } },
      new Map([["/a/x", { demand: { cpu: 5 } }]]),
    );
    // Siblings keep record order (/b was created first); /a/x follows its parent.
    expect(input.pools.map((p) => p.path)).toEqual(["/b", "/a", "/a/x"]);
    const outcome = calculateEntitlement(input);
    // /a wants 5: round 1 gives it 5 of 10 (share 1 of 1); the other 5 split by share: 7.5 / 2.5.
    expect(outcome.ok && entitlementOf(outcome.result, "/a/x")?.entitlement.cpu).toBe(7.5);
  });
});
