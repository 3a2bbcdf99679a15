/** The pure parts of mesos-sim and of the client: no sockets, no timers (or fake ones). */
import { afterEach, describe, expect, it, vi } from "vitest";
import { Backoff } from "../src/client/backoff.ts";
import { redirectTarget, schedulerUrl } from "../src/client/http-post.ts";
import {
  demoCluster,
  HeartbeatWatchdog,
  parseAgentFile,
  ResourceBag,
  scalarResource,
} from "../src/index.ts";
import { parseCall } from "../src/sim/call-validation.ts";
import { agentResources } from "../src/sim/cluster.ts";
import { isRefused, pruneFilters, type RefusalFilter, refuseMillis } from "../src/sim/filters.ts";
import { acceptsJson } from "../src/sim/http-server.ts";
import { isAllocatable, mayOfferAgent, offerableFor } from "../src/sim/offers.ts";
import { reconcileAnswer } from "../src/sim/reconcile.ts";
import { simulatedRunSpec } from "../src/sim/simulated-run.ts";
import { isValidStatusUuid, newStatusUuid } from "../src/sim/status.ts";
import { fixture } from "./support/fixtures.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("refusal filters", () => {
  const cpus = (n: number) => ResourceBag.of([scalarResource("cpus", n)]);
  const filter: RefusalFilter = { agentId: "a", role: "r", resources: cpus(4), expiresAt: 1000 };

  it.each([
    ["the same resources, before expiry", "a", "r", 4, 999, true],
    ["fewer resources (a subset)", "a", "r", 2, 999, true],
    ["more resources (something freed up)", "a", "r", 5, 999, false],
    ["after expiry", "a", "r", 4, 1000, false],
    ["another agent", "b", "r", 4, 999, false],
    ["another role", "a", "s", 4, 999, false],
  ] as const)("%s → refused=%s", (_name, agent, role, n, now, refused) => {
    expect(isRefused([filter], agent, role, cpus(n), now)).toBe(refused);
  });

  it("defaults to 5 s, caps at a year, 0 means none", () => {
    expect(refuseMillis(undefined)).toBe(5000);
    expect(refuseMillis({})).toBe(5000);
    expect(refuseMillis({ refuse_seconds: 0 })).toBe(0);
    expect(refuseMillis({ refuse_seconds: -1 })).toBe(5000);
    expect(refuseMillis({ refuse_seconds: 1e12 })).toBe(365 * 24 * 3600 * 1000);
  });

  it("prunes expired filters and reports the next expiry", () => {
    const list = [filter, { ...filter, expiresAt: 500 }, { ...filter, expiresAt: 2000 }];
    expect(pruneFilters(list, 600)).toBe(1000);
    expect(list.map((f) => f.expiresAt)).toEqual([1000, 2000]);
  });
});

describe("offers", () => {
  it("offers unreserved resources plus the role's reservations", () => {
    const avail = ResourceBag.of([
      scalarResource("cpus", 2),
      scalarResource("disk", 10, { role: "db" }),
      scalarResource("disk", 20, { role: "web" }),
    ]);
    expect(
      offerableFor(avail, "db")
        .toResources()
        .map((r) => `${r.name}(${r.role})`),
    ).toEqual(["cpus(*)", "disk(db)"]);
  });

  it("needs cpus ≥ 0.01 or mem ≥ 32 to be worth an offer", () => {
    expect(isAllocatable(ResourceBag.of([scalarResource("cpus", 0.01)]))).toBe(true);
    expect(
      isAllocatable(ResourceBag.of([scalarResource("mem", 31), scalarResource("disk", 1000)])),
    ).toBe(false);
  });

  it("gates GPU agents on the GPU_RESOURCES capability", () => {
    expect(mayOfferAgent(true, false)).toBe(false);
    expect(mayOfferAgent(true, true)).toBe(true);
    expect(mayOfferAgent(false, false)).toBe(true);
  });
});

describe("reconciliation answers", () => {
  const running = {
    taskId: "t",
    agentId: "a",
    executorId: "t",
    state: "TASK_RUNNING" as const,
    unreachable: false,
  };

  it.each([
    [
      "known task",
      running,
      "registered",
      true,
      "TASK_RUNNING",
      "Reconciliation: Latest task state",
    ],
    [
      "unreachable task, partition-aware",
      { ...running, unreachable: true },
      "unreachable",
      true,
      "TASK_UNREACHABLE",
      "Reconciliation: Task is unreachable",
    ],
    [
      "unreachable task, not partition-aware",
      { ...running, unreachable: true },
      "unreachable",
      false,
      "TASK_LOST",
      "Reconciliation: Task is unreachable",
    ],
    [
      "unknown task on a registered agent",
      undefined,
      "registered",
      true,
      "TASK_GONE",
      "Reconciliation: Task is unknown to the agent",
    ],
    [
      "unknown task, gone agent",
      undefined,
      "gone",
      true,
      "TASK_GONE_BY_OPERATOR",
      "Reconciliation: Task is gone",
    ],
    [
      "unknown task, unknown agent",
      undefined,
      "unknown",
      true,
      "TASK_UNKNOWN",
      "Reconciliation: Task is unknown",
    ],
    [
      "unknown task, not partition-aware",
      undefined,
      "unknown",
      false,
      "TASK_LOST",
      "Reconciliation: Task is unknown",
    ],
  ] as const)("%s → %s", (_name, task, standing, pa, state, message) => {
    const answer = reconcileAnswer({ taskId: "t", agentId: "a" }, task, standing, pa);
    expect(answer).toMatchObject({
      state,
      message,
      reason: "REASON_RECONCILIATION",
      source: "SOURCE_MASTER",
    });
    expect(answer.uuid).toBeUndefined();
  });
});

describe("call validation", () => {
  it("accepts every fixture call", () => {
    for (const name of [
      "subscribe-call",
      "resubscribe-call",
      "accept-launch-call",
      "decline-call",
      "acknowledge-call",
      "kill-call",
      "reconcile-call",
      "reconcile-implicit-call",
      "create-volume-call",
    ]) {
      const parsed = parseCall(JSON.stringify(fixture(name)));
      expect(parsed.ok, `${name}: ${parsed.ok ? "" : parsed.message}`).toBe(true);
    }
  });

  it("rejects what the master rejects, with its words", () => {
    const msg = (call: unknown) => {
      const p = parseCall(JSON.stringify(call));
      return p.ok ? "ok" : p.message;
    };
    expect(msg({ type: "RECONCILE", reconcile: {} })).toBe(
      "Failed to validate scheduler::Call: Expecting 'framework_id' to be present",
    );
    expect(
      msg({
        type: "ACKNOWLEDGE",
        framework_id: { value: "f" },
        acknowledge: { agent_id: { value: "a" }, task_id: { value: "t" }, uuid: "AAAA" },
      }),
    ).toMatch(/not a valid UUID/);
    expect(
      msg({ type: "DECLINE", framework_id: { value: "f" }, decline: { offer_ids: [{}] } }),
    ).toMatch(/missing required field 'decline.offer_ids\[0\].value'/);
    expect(
      msg({
        type: "REVIVE",
        framework_id: { value: "f" },
        revive: { role: "ignored, as in Mesos" },
      }),
    ).toBe("ok");
  });

  it("uuids are 16 random bytes in base64", () => {
    const uuid = newStatusUuid();
    expect(isValidStatusUuid(uuid)).toBe(true);
    expect(isValidStatusUuid("Oh8MXostT2qcfh0rPE1ebw==")).toBe(true);
    expect(isValidStatusUuid("AAAA")).toBe(false);
  });
});

describe("agent files and the demo cluster", () => {
  it("parses the agent file format, with count", () => {
    const specs = parseAgentFile({
      agents: [
        {
          hostname: "gpu",
          resources: { cpus: 8, mem: 1024, gpus: 2, ports: "31000-31100" },
          attributes: { zone: "a", rack: 3 },
        },
        { hostname: "cpu", count: 2, resources: { cpus: 4, mem: 512 } },
      ],
    });
    expect(specs.map((s) => s.hostname)).toEqual(["gpu", "cpu-1", "cpu-2"]);
    expect(agentResources(specs[0]!).map((r) => r.name)).toEqual(["cpus", "mem", "gpus", "ports"]);
    expect(() => parseAgentFile({ agents: [{ resources: { cpus: "8" } }] })).toThrow(
      /cpus must be a number/,
    );
    expect(() => parseAgentFile({ nodes: [] })).toThrow(/expected an array/);
  });

  it("builds 8 agents over 2 zones, 2 with GPUs", () => {
    const cluster = demoCluster();
    expect(cluster).toHaveLength(8);
    expect(new Set(cluster.map((a) => a.attributes?.zone))).toEqual(
      new Set(["us-east-1a", "us-east-1b"]),
    );
    expect(cluster.filter((a) => (a.resources.gpus ?? 0) > 0)).toHaveLength(2);
  });
});

describe("simulated runs", () => {
  const task = (labels: Record<string, string>, env: Record<string, string> = {}) => ({
    name: "t",
    task_id: { value: "t" },
    agent_id: { value: "a" },
    labels: { labels: Object.entries(labels).map(([key, value]) => ({ key, value })) },
    command: {
      value: "x",
      environment: { variables: Object.entries(env).map(([name, value]) => ({ name, value })) },
    },
  });

  it("reads duration and exit code from labels first, then the environment", () => {
    expect(simulatedRunSpec(task({ PELOTON_SIM_DURATION_MS: "10" }), false)).toEqual({
      durationMs: 10,
      exitCode: 0,
    });
    expect(
      simulatedRunSpec(
        task({}, { PELOTON_SIM_DURATION_MS: "5", PELOTON_SIM_EXIT_CODE: "3" }),
        false,
      ),
    ).toEqual({
      durationMs: 5,
      exitCode: 3,
    });
    expect(simulatedRunSpec(task({}), false)).toBeUndefined();
    expect(simulatedRunSpec(task({}), true)).toEqual({ durationMs: undefined, exitCode: 0 });
  });
});

describe("client plumbing", () => {
  it("resolves 307 Locations: scheme-less, bare host:port, absolute", () => {
    const from = schedulerUrl("http://m1:5050");
    expect(from.href).toBe("http://m1:5050/api/v1/scheduler");
    expect(redirectTarget("//m2:5050/api/v1/scheduler", from).href).toBe(
      "http://m2:5050/api/v1/scheduler",
    );
    expect(redirectTarget("m3:5050", from).href).toBe("http://m3:5050/api/v1/scheduler");
    expect(redirectTarget("http://m4:5051/master/api/v1/scheduler", from).href).toBe(
      "http://m4:5051/master/api/v1/scheduler",
    );
  });

  it("accepts JSON from Accept headers the way a master does", () => {
    expect(acceptsJson(undefined)).toBe(true);
    expect(acceptsJson("application/json")).toBe(true);
    expect(acceptsJson("text/html, */*;q=0.1")).toBe(true);
    expect(acceptsJson("application/x-protobuf")).toBe(false);
    expect(acceptsJson("application/json;q=0")).toBe(false);
  });

  it("backs off exponentially with jitter up to the cap", () => {
    const b = new Backoff({ initialMs: 100, maxMs: 1000, random: () => 1 });
    expect([b.next(), b.next(), b.next(), b.next(), b.next()]).toEqual([100, 200, 400, 800, 1000]);
    b.reset();
    expect(new Backoff({ initialMs: 100, random: () => 0 }).next()).toBe(50);
  });

  it("declares the stream dead after factor × interval of silence, not before", () => {
    vi.useFakeTimers();
    let now = 0;
    const missed: number[] = [];
    const dog = new HeartbeatWatchdog(
      (ms) => missed.push(ms),
      () => now,
    );
    dog.start(0.2, 2); // 400 ms
    now = 300;
    dog.beat();
    now = 400;
    vi.advanceTimersByTime(400);
    expect(missed).toEqual([]);
    now = 700;
    vi.advanceTimersByTime(300);
    expect(missed).toEqual([400]);
    dog.stop();
  });
});
