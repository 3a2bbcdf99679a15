/** Explanations: structured steps per pool and kind, and the sentence made of them. */
import { describe, expect, it } from "vitest";
import { describeExplanation, type ExplanationStep, explanationOf } from "../src/index.ts";
import { cluster, entitle, pool } from "./support/builders.ts";

/*
 *   / cpu 100
 *   └─ infra                         (alone: gets all 100)
 *      ├─ x  reserve 40, share 2, limit 50, demand 100
 *      └─ y  share 3, demand 10
 */
const infra = cluster({ cpu: 100 }, [
  pool("/infra"),
  pool("/infra/x").reserve({ cpu: 40 }).share(2).limit({ cpu: 50 }).demand({ cpu: 100 }),
  pool("/infra/y").share(3).demand({ cpu: 10 }),
]);

describe("explanation steps", () => {
  const { result, at } = entitle(infra, true);
  const x = explanationOf(result, "/infra/x")!.cpu;

  it("records each phase in order with its numbers", () => {
    // want min(100, 50) = 50; reserved 40, unmet 10; free 100 − 40 = 60, totalShare 2 + 3.
    // round 1: x 2×60/5 = 24 → capped at 10; y 3×60/5 = 36 → 10; free 40.
    // phase 3: x + 2×40/5 = 16 → 66, capped at 50 (16 removed); y + 24 → 34.
    expect(x).toEqual<ExplanationStep[]>([
      { step: "wants", amount: 50, requirement: 100, limit: 50 },
      { step: "reserved", amount: 40, reservation: 40, type: "ELASTIC", overParent: 0 },
      { step: "share", round: 1, amount: 10, of: 60, at: "/infra", share: 2, totalShare: 5 },
      { step: "capped-by-demand", round: 1, want: 50 },
      { step: "unclaimed", amount: 16, of: 40, at: "/infra", share: 2, totalShare: 5 },
      { step: "capped-by-limit", limit: 50, removed: 16 },
    ]);
    expect(at("/infra/x").entitlement.cpu).toBe(50);
    expect(at("/infra/y").entitlement.cpu).toBe(34);
  });

  it("renders one sentence", () => {
    expect(describeExplanation(x, "cpu")).toBe(
      "wants 50 cpu (asks 100, capped by limit 50); reserved 40 cpu; " +
        "borrowed 10 of the 60 left at /infra by share 2 of 5; capped by demand 50; " +
        "got 16 of the 40 nobody asked for at /infra by share 2 of 5; capped by limit 50",
    );
  });

  it("the root's entitlement is the cluster capacity", () => {
    expect(explanationOf(result, "/")!.cpu).toEqual([{ step: "capacity", amount: 100 }]);
  });

  it("a reservation beyond what the parent had left says so", () => {
    const r = entitle(
      cluster({ gpu: 1 }, [
        pool("/a").reserve({ gpu: 1 }).static(),
        pool("/b").reserve({ gpu: 1 }).static(),
      ]),
      ["/b"],
    ).result;
    const reserved = explanationOf(r, "/b")!.gpu.find((s) => s.step === "reserved");
    expect(reserved).toMatchObject({ amount: 1, type: "STATIC", overParent: 1 });
    expect(describeExplanation(explanationOf(r, "/b")!.gpu, "gpu")).toContain(
      "reserved 1 gpu (STATIC), 1 of it beyond what the parent had left",
    );
  });

  it("many phase-2 rounds fold into one carry step", () => {
    const r = entitle(
      cluster({ cpu: 100 }, [
        pool("/a").share(3).demand({ cpu: 1 }),
        pool("/b").demand({ cpu: 100 }),
      ]),
      ["/b"],
    ).result;
    const b = explanationOf(r, "/b")!.cpu;
    expect(b.map((s) => s.step)).toEqual(["wants", "reserved", "share", "share-carry"]);
    expect(describeExplanation(b, "cpu")).toMatch(
      /^wants 100 cpu; borrowed 25 of the 100 left at \/ by share 1 of 4; then 74 more in \d+ later rounds/,
    );
  });

  it("slack steps follow the entitlement steps", () => {
    const r = entitle(
      cluster(
        { cpu: 10, memory: 100 },
        [
          pool("/a")
            .reserve({ memory: 50 })
            .slackAlloc({ cpu: 2 })
            .slackDemand({ cpu: 3, memory: 40 }),
        ],
        { cpu: 20 },
      ),
      true,
    ).result;
    const e = explanationOf(r, "/a")!;
    // memory: want min(10, 40) = 10 → entitlement 100; kept min(100 − 0, 10) = 10.
    expect(e.memory.at(-1)).toEqual({
      step: "slack-kept",
      amount: 10,
      need: 0,
      requirement: 10,
      nonSlack: 90,
    });
    // cpu: 2 allocated, then 3 of the 18 left for its demand, then the other 15.
    expect(e.cpu.slice(-4).map((s) => s.step)).toEqual([
      "slack-allocated",
      "slack-share",
      "slack-capped-by-demand",
      "slack-unclaimed",
    ]);
    expect(describeExplanation(e.cpu, "cpu")).toContain("revocable: 2 slack cpu allocated");
  });

  it("only the pools asked about are explained", () => {
    const r = entitle(infra, ["/infra/y"]).result;
    expect(explanationOf(r, "/infra/x")).toBeUndefined();
    expect(explanationOf(r, "/infra/y")?.cpu.length).toBeGreaterThan(0);
    expect(explanationOf(entitle(infra).result, "/infra/y")).toBeUndefined();
  });

  it("explaining does not change the numbers", () => {
    const plain = entitle(infra).result;
    const explained = entitle(infra, true).result;
    expect(Array.from(explained.entitlement)).toEqual(Array.from(plain.entitlement));
    expect(Array.from(explained.slackEntitlement)).toEqual(Array.from(plain.slackEntitlement));
  });
});
