/**
 * `peloton preemption` (the real binary) against the real API over HTTP on
 * the scratch database, with a history the engine decided on the demo tree.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { seedDemoData } from "@peloton/scheduler";
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { type ServedApi, serveApi } from "@peloton/test-support/api/http-server.ts";
import {
  preemptionScenario,
  type ScenarioOutcome,
} from "@peloton/test-support/scheduler/preemption-scenario.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const BIN = resolve(import.meta.dirname, "../bin/peloton.mjs");
const ctx = testContext(testActor({ login: "oncall", displayName: "On-call" }));
let api: ServedApi;
let s: ScenarioOutcome;

beforeAll(async () => {
  await resetDatabase();
  await seedDemoData(ctx.gateway);
  s = await preemptionScenario(ctx.gateway, inject("databaseUrl"), {
    now: new Date(),
    capacity: { cpu: 48, memory: 196608, disk: 700000, gpu: 4 },
    hostname: "host-1",
  });
  api = await serveApi(() => ctx);
});
afterAll(async () => {
  await api?.close();
  await ctx.close();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function peloton(...args: string[]): Promise<Run> {
  return promisify(execFile)(process.execPath, [BIN, ...args], {
    env: { ...process.env, PELOTON_URL: api.url },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      stdout: err.stdout,
      stderr: err.stderr,
    }),
  );
}

const task = (p: { victim: { jobName: string; instanceId: number } }) =>
  `${p.victim.jobName}/${p.victim.instanceId}`;

describe("peloton preemption list", () => {
  it("prints Peloton's table, newest first, with who benefited, where, whether it came back and why", async () => {
    const run = await peloton("preemption", "list");
    expect(run.stderr).toBe("");
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^Time\s+Kind\s+Victim task\s+Victim pool\s+Beneficiary\s+Level\s+Came back\s+Reason$/,
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\S+Z\\s+intra-pool\\s+${task(s.intra)}\\s+/ml/training\\s+train-urgent/0 \\(priority 9\\)\\s+/ml/training\\s+not yet \\(PREEMPTING\\)\\s+/ml/training was at its cpu entitlement`,
      ),
    );
    expect(lines[3]).toMatch(
      new RegExp(
        `^\\S+Z\\s+inter-pool\\s+${task(s.cameBack)}\\s+/web\\s+/infra/batch\\s+/\\s+after 15 min \\(run 1\\)\\s+/web was over its cpu entitlement by 6 cores`,
      ),
    );
  });

  it("filters like the console: pool and side, kind, job, time", async () => {
    const ids = async (...args: string[]) =>
      (
        JSON.parse((await peloton("preemption", "list", "--json", ...args)).stdout) as {
          id: string;
        }[]
      ).map((p) => p.id);
    expect(await ids("--pool", "/web", "--side", "victim")).toEqual([s.killed.id, s.cameBack.id]);
    expect(await ids("--pool", "/ml", "--subtree")).toEqual([s.intra.id]);
    expect(await ids("--kind", "intra")).toEqual([s.intra.id]);
    expect(
      await ids(
        "--job",
        s.cameBack.victim.jobId,
        "--instance",
        String(s.cameBack.victim.instanceId),
      ),
    ).toEqual([s.cameBack.id]);
    expect(await ids("--since", "30m")).toEqual([s.intra.id]);
    expect(await ids("--limit", "1")).toEqual([s.intra.id]);
  });

  it("prints the console's CSV export for the same filters", async () => {
    const run = await peloton(
      "preemption",
      "list",
      "--csv",
      "--pool",
      "/infra/batch",
      "--side",
      "beneficiary",
    );
    const lines = run.stdout.trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^id,time,kind,victim_job_id,victim_job,/);
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual([s.killed.id, s.cameBack.id]);
  });

  it.each([
    { args: ["--since", "a while ago"], error: /since: "a while ago" is not a time/ },
    { args: ["--kind", "fairness"], error: /--kind: inter or intra/ },
    { args: ["--pool", "web"], error: /pool: a pool path looks like/ },
  ])("fails with one line naming the field: $args", async ({ args, error }) => {
    const run = await peloton("preemption", "list", ...args);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^peloton: /);
    expect(run.stderr).toMatch(error);
  });

  it("fails the same way for a bad filter of the CSV export", async () => {
    const run = await peloton("preemption", "list", "--csv", "--since", "soon");
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      'peloton: cannot export preemptions: since: "soon" is not a time: use an ISO time (2026-11-23T10:00:00Z) or a duration back from now (30m, 24h, 7d)',
    );
  });
});

describe("peloton preemption get", () => {
  it("prints the decision in words and its numbers per kind", async () => {
    const run = await peloton("preemption", "get", s.killed.id);
    expect(run.stdout).toContain("Victim pool     /web");
    expect(run.stdout).toContain("Beneficiary     /infra/batch");
    expect(run.stdout).toContain("Kind            inter-pool fairness (INTER_POOL)");
    expect(run.stdout).toContain(`Reason          ${s.killed.reason}`);
    expect(run.stdout).toMatch(/^cores\s+30\s+24\s+0\s+6\s+3\s+3$/m);
    expect(run.stdout).toMatch(/^\/infra\/batch\s+waited\s+\/\s+24\s+0\s+-\s+24$/m);
  });

  it("says when there is no such preemption", async () => {
    const run = await peloton("preemption", "get", "424242");
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe("peloton: preemption 424242 does not exist");
  });
});
