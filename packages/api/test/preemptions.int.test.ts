/**
 * The preemptions router and the CSV export on the scratch database, with a
 * history the engine decided on the demo tree and `recordMany` recorded
 * (packages/scheduler/test/support/preemption-scenario.ts):
 *
 *   50 min ago  /web → /infra/batch at /   web-reports/3 (READY → PENDING, came back)
 *                                          web-reports/k (RUNNING → PREEMPTING)
 *   20 min ago  within /ml/training        train-resnet/k for train-urgent/0
 */

import { seedDemoData } from "@peloton/scheduler";
import { testContext } from "@peloton/test-support/api/context.ts";
import {
  preemptionScenario,
  type ScenarioOutcome,
} from "@peloton/test-support/scheduler/preemption-scenario.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createCaller } from "../src/index.ts";
import { CSV_HEADER } from "../src/preemptions/csv.ts";
import { preemptionsCsvResponse } from "../src/preemptions/http.ts";
import type { PreemptionFiltersInput } from "../src/schemas/index.ts";

const ctx = testContext();
const caller = createCaller(ctx);
afterAll(() => ctx.close());

const NOW = new Date();
let s: ScenarioOutcome;

beforeAll(async () => {
  await resetDatabase();
  await seedDemoData(ctx.gateway);
  s = await preemptionScenario(ctx.gateway, inject("databaseUrl"), {
    now: NOW,
    capacity: { cpu: 48, memory: 196608, disk: 700000, gpu: 4 },
    hostname: "host-1",
  });
});

const label = (p: { victim: { jobName: string; instanceId: number } }) =>
  `${p.victim.jobName}/${p.victim.instanceId}`;

async function listed(filters: PreemptionFiltersInput): Promise<string[]> {
  return (await caller.preemptions.list(filters)).items.map(label);
}

describe("preemptions.list", () => {
  it("pages newest first with the cursor it hands out", async () => {
    const first = await caller.preemptions.list({ limit: 2 });
    const second = await caller.preemptions.list({ limit: 2, cursor: first.nextCursor });
    expect([...first.items, ...second.items].map((p) => p.id)).toEqual([
      s.intra.id,
      s.killed.id,
      s.cameBack.id,
    ]);
    expect(second.nextCursor).toBeNull();
  });

  it.each<{
    name: string;
    filters: (o: ScenarioOutcome) => PreemptionFiltersInput;
    expected: (o: ScenarioOutcome) => string[];
  }>([
    {
      name: "the victim's pool",
      filters: () => ({ pool: "/web", side: "victim" }),
      expected: (o) => [label(o.killed), label(o.cameBack)],
    },
    {
      name: "the beneficiary pool",
      filters: () => ({ pool: "/infra/batch", side: "beneficiary" }),
      expected: (o) => [label(o.killed), label(o.cameBack)],
    },
    {
      name: "either side of a pool (in and out)",
      filters: () => ({ pool: "/infra/batch" }),
      expected: (o) => [label(o.killed), label(o.cameBack)],
    },
    {
      name: "a pool and everything below it",
      filters: () => ({ pool: "/ml", subtree: true }),
      expected: (o) => [label(o.intra)],
    },
    { name: "/ml alone had none", filters: () => ({ pool: "/ml" }), expected: () => [] },
    {
      name: "the victim's job",
      filters: (o) => ({ job: o.killed.victim.jobId }),
      expected: (o) => [label(o.killed), label(o.cameBack)],
    },
    {
      name: "one instance of a job",
      filters: (o) => ({ job: o.cameBack.victim.jobId, instance: o.cameBack.victim.instanceId }),
      expected: (o) => [label(o.cameBack)],
    },
    {
      name: "the victim's task",
      filters: (o) => ({ task: o.intra.victim.taskId }),
      expected: (o) => [label(o.intra)],
    },
    {
      name: "intra-pool only",
      filters: () => ({ kind: "INTRA_POOL" }),
      expected: (o) => [label(o.intra)],
    },
    {
      name: "a duration back from now",
      filters: () => ({ since: "30m" }),
      expected: (o) => [label(o.intra)],
    },
    {
      name: "an ISO range",
      filters: () => ({
        since: new Date(NOW.getTime() - 3_600_000).toISOString(),
        until: new Date(NOW.getTime() - 30 * 60_000).toISOString(),
      }),
      expected: (o) => [label(o.killed), label(o.cameBack)],
    },
  ])("filters by $name", async ({ filters, expected }) => {
    expect(await listed(filters(s))).toEqual(expected(s));
  });

  it.each<{ name: string; filters: PreemptionFiltersInput; field: string; message: RegExp }>([
    {
      name: "a pool path that is not one",
      filters: { pool: "web" },
      field: "pool",
      message: /pool path looks like/,
    },
    {
      name: "a time that is not one",
      filters: { since: "yesterday" },
      field: "since",
      message: /not a time: use an ISO time .* or a duration/,
    },
    {
      name: "a range that ends before it starts",
      filters: { since: "1h", until: "2h" },
      field: "until",
      message: /until must be after since/,
    },
    {
      name: "an instance without its job",
      filters: { instance: 3 },
      field: "instance",
      message: /needs its job/,
    },
    {
      name: "a job id that is not an id",
      filters: { job: "web-reports" },
      field: "job",
      message: /job is an id/,
    },
  ])("refuses $name, naming the field", async ({ filters, field, message }) => {
    const err = await caller.preemptions.list(filters).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe("BAD_REQUEST");
    const issues =
      ((err as TRPCError).cause as { issues?: { path: unknown[]; message: string }[] }).issues ??
      [];
    expect(issues.some((i) => i.path.join(".") === field && message.test(i.message))).toBe(true);
  });
});

describe("preemptions.get", () => {
  it("returns the decision with its numbers, beneficiary, level and whether the victim came back", async () => {
    const p = await caller.preemptions.get({ id: s.cameBack.id });
    expect(p).toEqual(s.cameBack);
    expect(p).toMatchObject({
      kind: "INTER_POOL",
      level: "/",
      beneficiary: { poolPath: "/infra/batch" },
      numbers: { allocation: { cpu: 30 }, entitlement: { cpu: 24 }, excess: { cpu: 6 } },
      rescheduled: { runId: 1 },
      taskNow: { state: "SUCCEEDED" },
    });
  });

  it("says which preemption does not exist", async () => {
    await expect(caller.preemptions.get({ id: "987654" })).rejects.toThrow(
      "preemption 987654 does not exist",
    );
  });
});

describe("preemptions.countsByPool", () => {
  it("counts out of, into and within each pool since the first preemption, busiest pool first", async () => {
    const c = await caller.preemptions.countsByPool({});
    // The span is about 50 minutes: one-minute buckets.
    expect(c.bucketSeconds).toBe(60);
    expect(c.buckets.length).toBeGreaterThanOrEqual(50);
    const total = (pool: string) => c.pools.find((p) => p.pool === pool);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(c.pools.map((p) => [p.pool, p.total])).toEqual([
      ["/infra/batch", 2],
      ["/web", 2],
      ["/ml/training", 1],
    ]);
    expect(sum(total("/web")!.out)).toBe(2);
    expect(sum(total("/infra/batch")!.in)).toBe(2);
    expect(sum(total("/ml/training")!.within)).toBe(1);
    // Both /web preemptions fall in the same bucket, 50 minutes ago.
    const i = total("/web")!.out.indexOf(2);
    expect(c.buckets[i]!.getTime()).toBe(Math.floor(s.killed.at.getTime() / 60_000) * 60_000);
  });

  it("for one pool, over a preset range", async () => {
    const c = await caller.preemptions.countsByPool({ pool: "/web", since: "24h" });
    expect(c.bucketSeconds).toBe(1800);
    expect(c.pools.map((p) => p.pool)).toEqual(["/web"]);
  });
});

describe("CSV export", () => {
  const csv = async (query: string) => {
    const res = preemptionsCsvResponse(
      ctx.gateway,
      new URL(`http://console/api/preemptions.csv${query}`),
      new Date("2026-11-23T10:15:00Z"),
    );
    return { res, text: await res.text() };
  };

  it("streams the list's rows for the page's filters, header first, with a name that says what it holds", async () => {
    const { res, text } = await csv("?pool=%2Fweb&side=victim");
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(
      'attachment; filename="preemptions-web-20261123-1015.csv"',
    );
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(CSV_HEADER.join(","));
    expect(lines).toHaveLength(3);
    const col = (line: string, name: string) => {
      // The reason is the last column and the only one with commas (quoted).
      const reasonAt = line.indexOf(',"');
      const cells = line.slice(0, reasonAt).split(",");
      return name === "reason" ? line.slice(reasonAt + 1) : cells[CSV_HEADER.indexOf(name)];
    };
    expect(col(lines[1]!, "id")).toBe(s.killed.id);
    expect(col(lines[1]!, "victim_pool")).toBe("/web");
    expect(col(lines[1]!, "beneficiary_pool")).toBe("/infra/batch");
    expect(col(lines[1]!, "allocation_cpu")).toBe("30");
    expect(col(lines[1]!, "entitlement_cpu")).toBe("24");
    expect(col(lines[1]!, "excess_cpu")).toBe("6");
    expect(col(lines[1]!, "victim_state_after")).toBe("PREEMPTING");
    expect(col(lines[2]!, "rescheduled_run")).toBe("1");
    expect(col(lines[2]!, "reason")).toBe(`"${s.cameBack.reason}"`);
  });

  it("refuses a bad filter with the field and the rule, not a file", async () => {
    const { res, text } = await csv("?since=soon");
    expect(res.status).toBe(400);
    expect(text).toMatch(/^cannot export preemptions: since: "soon" is not a time/);
  });
});
