/**
 * How a run ended reaches Peloton's clients: v0's RuntimeInfo and v1alpha's
 * container status carry the engine's TerminationStatus reason, an update's
 * replaced run as KILLED_FOR_UPDATE, a run still going none.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { jobConfigSchema } from "@peloton/engine";
import { describe, expect, it } from "vitest";
import {
  TaskInfoSchema,
  TerminationStatus_Reason as V0Reason,
} from "../src/generated/peloton/api/v0/task/task_pb.ts";
import {
  PodStatusSchema,
  TerminationStatus_Reason as V1Reason,
} from "../src/generated/peloton/api/v1alpha/pod/pod_pb.ts";
import { type TaskListed, taskInfo } from "../src/v0/task-info.ts";
import { podStatus } from "../src/v1alpha/pods.ts";

const AT = new Date("2026-11-29T12:00:00Z");
const CONFIG = jobConfigSchema.parse({
  name: "web",
  type: "SERVICE",
  instanceCount: 1,
  defaultConfig: { resource: { cpuLimit: 0.1, memLimitMb: 32 }, command: { value: "sleep 1" } },
});

function task(over: Partial<TaskListed>): TaskListed {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    jobId: "00000000-0000-4000-8000-000000000002",
    instanceId: 0,
    runId: 1,
    desiredRun: 2,
    clusterTaskId: "00000000-0000-4000-8000-000000000002-0-1",
    state: "KILLED",
    goalState: "RUNNING",
    hostname: "a1.test",
    ports: {},
    reason: "JOB_UPDATE",
    message: "replaced by a run with the new config (update 1a2b3c4d (alice); not a failure)",
    failureCount: 0,
    cpu: 0.1,
    memMb: 32,
    diskMb: 0,
    gpu: 0,
    priority: 0,
    preemptible: true,
    revocable: false,
    controller: false,
    pinnedHost: null,
    previousHost: null,
    notBefore: null,
    queuedAt: AT,
    createdAt: AT,
    updatedAt: AT,
    startedAt: AT,
    finishedAt: AT,
    health: "DISABLED",
    healthChangedAt: null,
    healthMessage: null,
    configVersion: 1,
    desiredConfigVersion: 2,
    name: "web",
    ...over,
  } as TaskListed;
}

describe("termination status on the wire", () => {
  it("an update's replaced run is KILLED_FOR_UPDATE in v0 and v1alpha", () => {
    const info = create(TaskInfoSchema, taskInfo(task({}), CONFIG));
    expect(info.runtime?.terminationStatus?.reason).toBe(
      V0Reason.TERMINATION_STATUS_REASON_KILLED_FOR_UPDATE,
    );
    // The message built as a literal goes over the wire and back unchanged.
    expect(fromBinary(TaskInfoSchema, toBinary(TaskInfoSchema, info))).toEqual(info);
    const pod = create(PodStatusSchema, podStatus(task({})));
    expect(pod.containersStatus[0]?.terminationStatus?.reason).toBe(
      V1Reason.TERMINATION_STATUS_REASON_KILLED_FOR_UPDATE,
    );
  });

  it("a run still going, or one that simply finished, has none", () => {
    for (const over of [
      { state: "RUNNING", reason: null, finishedAt: null },
      { state: "SUCCEEDED", reason: "REASON_COMMAND_EXECUTOR_FAILED" },
    ] as const) {
      expect(create(TaskInfoSchema, taskInfo(task(over), CONFIG)).runtime?.terminationStatus).toBe(
        undefined,
      );
      expect(
        create(PodStatusSchema, podStatus(task(over))).containersStatus[0]?.terminationStatus,
      ).toBe(undefined);
    }
  });

  it("a stop is KILLED_ON_REQUEST, a failure FAILED", () => {
    const reason = (over: Partial<TaskListed>) =>
      create(TaskInfoSchema, taskInfo(task(over), CONFIG)).runtime?.terminationStatus?.reason;
    expect(reason({ goalState: "KILLED", reason: "REASON_TASK_KILLED" })).toBe(
      V0Reason.TERMINATION_STATUS_REASON_KILLED_ON_REQUEST,
    );
    expect(reason({ state: "FAILED", reason: "REASON_COMMAND_EXECUTOR_FAILED" })).toBe(
      V0Reason.TERMINATION_STATUS_REASON_FAILED,
    );
  });
});
