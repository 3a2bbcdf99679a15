/**
 * Placement's snapshot and the launches built from its answers (pure):
 * ports by name, the daemon host pin, gangs, strategies, Peloton's
 * environment, and hosts without an offer counted for the reasons.
 */
import { type JobConfigInput, jobConfigSchema } from "@peloton/engine";
import type { HostFacts, ReadyTaskRow } from "@peloton/storage";
import { describe, expect, it } from "vitest";
import {
  assignPorts,
  placementHosts,
  placementTasks,
  portRequestOf,
} from "../src/placement/placement-input.ts";
import { taskLaunchOf } from "../src/placement/task-launch.ts";

const config = (c: Partial<JobConfigInput> = {}) =>
  jobConfigSchema.parse({
    name: "web",
    instanceCount: 4,
    defaultConfig: {
      resource: { cpuLimit: 1, memLimitMb: 128 },
      command: { value: "serve", environment: { variables: [{ name: "MODE", value: "prod" }] } },
      ports: [
        { name: "http", envName: "HTTP_PORT" },
        { name: "admin", value: 9090 },
        { name: "debug", envName: "DEBUG_PORT" },
      ],
    },
    ...c,
  });

const ready = (instanceId: number, over: Partial<ReadyTaskRow> = {}): ReadyTaskRow => ({
  taskId: `t-${instanceId}`,
  jobId: "job-1",
  configVersion: 1,
  instanceId,
  runId: 1,
  resources: { cpu: 1, gpu: 0, memory: 128, disk: 0 },
  pinnedHost: null,
  previousHost: null,
  reason: null,
  message: null,
  volume: null,
  ...over,
});

describe("ports", () => {
  it("asks for the static ones by number and counts the dynamic ones", () => {
    expect(portRequestOf(config().defaultConfig)).toEqual({ static: [9090], dynamic: 2 });
  });

  it("gives each named port its number: static from the config, dynamic in config order", () => {
    expect(
      assignPorts(config().defaultConfig, { static: [9090], dynamic: [31000, 31001] }),
    ).toEqual([
      { name: "http", envName: "HTTP_PORT", number: 31000 },
      { name: "admin", envName: undefined, number: 9090 },
      { name: "debug", envName: "DEBUG_PORT", number: 31001 },
    ]);
  });
});

describe("placementTasks", () => {
  it("spreads services, packs batch jobs, and gangs a batch job's first minimumRunningInstances", () => {
    const service = placementTasks([ready(0)], new Map([["job-1@1", config({ type: "SERVICE" })]]));
    expect(service[0]!.strategy).toBe("SPREAD_JOB");
    const batch = placementTasks(
      [ready(0), ready(1), ready(2)],
      new Map([["job-1@1", config({ sla: { minimumRunningInstances: 2 } })]]),
    );
    expect(batch.map((t) => [t.strategy, t.gangId])).toEqual([
      ["PACK_HOST", "job-1/gang"],
      ["PACK_HOST", "job-1/gang"],
      ["PACK_HOST", undefined],
    ]);
  });

  it("pins a daemon instance to its host with the implied hostname attribute", () => {
    const [t] = placementTasks([ready(0, { pinnedHost: "h-7" })], new Map([["job-1@1", config()]]));
    expect(t!.constraint).toEqual({
      type: "LABEL_CONSTRAINT",
      kind: "HOST",
      label: { key: "hostname", value: "h-7" },
      condition: "EQUAL",
      requirement: 1,
    });
  });

  it("keeps a stateful instance on its volume's host, and prefers the previous run's", () => {
    const [t] = placementTasks(
      [ready(0, { volume: { id: "v", hostname: "h-2", state: "CREATED" }, previousHost: "h-2" })],
      new Map([["job-1@1", config()]]),
    );
    expect(t).toMatchObject({ volumeHost: "h-2", previousHost: "h-2" });
  });
});

describe("placementHosts", () => {
  it("adds every known host without an offer with nothing free, in its stored state", () => {
    const facts = new Map<string, HostFacts>([
      [
        "h-1",
        {
          hostname: "h-1",
          state: "UP",
          total: { cpu: 8, gpu: 0, memory: 1024, disk: 0 },
          attributes: { zone: "a" },
        },
      ],
      [
        "h-2",
        {
          hostname: "h-2",
          state: "DRAINED",
          total: { cpu: 8, gpu: 0, memory: 1024, disk: 0 },
          attributes: {},
        },
      ],
    ]);
    const hosts = placementHosts(
      [
        {
          leaseId: "l",
          hostname: "h-1",
          hostId: "agent-1",
          attributes: { zone: "a" },
          free: { cpu: 2, memMb: 512, diskMb: 0, gpu: 0 },
          freePorts: [{ begin: 31000, end: 31010 }],
        },
      ],
      facts,
      { jobTasks: new Map([["h-1", { "job-1": 3 }]]), taskLabels: new Map() },
    );
    expect(hosts.map((h) => [h.hostname, h.state, h.free.cpu, h.total.cpu, h.jobTasks])).toEqual([
      ["h-1", "UP", 2, 8, { "job-1": 3 }],
      ["h-2", "DRAINING", 0, 8, {}],
    ]);
  });
});

describe("taskLaunchOf", () => {
  it("runs the instance's command with Peloton's environment over the job's, and the chosen ports", () => {
    const launch = taskLaunchOf(
      {
        jobId: "job-1",
        jobName: "web",
        instanceId: 2,
        runId: 3,
        resources: { cpu: 1, gpu: 0, memory: 128, disk: 0 },
        volume: null,
      },
      config(),
      { static: [9090], dynamic: [31000, 31001] },
    );
    expect(launch).toMatchObject({
      taskId: "job-1-2-3",
      name: "web-2",
      resources: { cpu: 1, memMb: 128, diskMb: 0, gpu: 0 },
      ports: { http: 31000, admin: 9090, debug: 31001 },
      command: {
        value: "serve",
        shell: true,
        environment: {
          MODE: "prod",
          PELOTON_JOB_ID: "job-1",
          PELOTON_INSTANCE_ID: "2",
          PELOTON_TASK_ID: "job-1-2-3",
          HTTP_PORT: "31000",
          DEBUG_PORT: "31001",
        },
      },
    });
  });
});
