/**
 * The job-change translations that need no server: an instance's workflow
 * events in each place it can stand in an update, and PatchJob's merge (what
 * is merged, what is refused).
 */
import { create, toJson } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { JobConfigSchema } from "../src/generated/peloton/api/v0/job/job_pb.ts";
import {
  type JobSpec,
  JobSpecSchema,
  WorkflowState,
} from "../src/generated/peloton/api/v1alpha/job/stateless/stateless_pb.ts";
import { patchedSpec } from "../src/v1alpha/job-patch.ts";
import { jobConfigOf, type UpdateView } from "../src/v1alpha/job-spec.ts";
import { instanceWorkflowEvents } from "../src/v1alpha/workflow-events.ts";
import { refused } from "./support/refusals.ts";

const CREATED = new Date("2026-01-02T03:04:05.000Z");
const COMPLETED = new Date("2026-01-02T04:00:00.000Z");

function update(over: Partial<UpdateView>): UpdateView {
  return {
    kind: "UPDATE",
    state: "ROLLING_FORWARD",
    batches: [{ index: 0, instances: [0, 1, 2, 3], state: "CURRENT" }],
    instancesCurrent: [1],
    instancesDone: [0],
    instancesFailed: [2],
    createdAt: CREATED,
    completedAt: null,
    ...over,
  } as UpdateView;
}

const states = (u: UpdateView, i: number) =>
  instanceWorkflowEvents(u, i).map((e) => [e.state, e.timestamp]);

describe("an instance's workflow events", () => {
  it("says where each instance of the update stands, newest first", () => {
    const u = update({});
    const created = [WorkflowState.INITIALIZED, CREATED.toISOString()];
    expect(states(u, 0)).toEqual([[WorkflowState.SUCCEEDED, ""], created]);
    expect(states(u, 1)).toEqual([[WorkflowState.ROLLING_FORWARD, ""], created]);
    expect(states(u, 2)).toEqual([[WorkflowState.FAILED, ""], created]);
    expect(states(u, 3)).toEqual([created]);
    expect(states(u, 9)).toEqual([]);
    const aborted = update({ state: "ABORTED", instancesCurrent: [], completedAt: COMPLETED });
    expect(states(aborted, 3)).toEqual([[WorkflowState.ABORTED, COMPLETED.toISOString()], created]);
  });
});

describe("PatchJob's merge", () => {
  const current = create(JobSpecSchema, {
    name: "web",
    instanceCount: 2,
    labels: [{ key: "tier", value: "front" }],
    sla: { priority: 3, maximumUnavailableInstances: 1 },
    defaultSpec: {
      containers: [{ name: "web", command: { value: "sleep 600", shell: true } }],
      restartPolicy: { maxFailures: 3 },
    },
  });

  it("merges set scalars and messages over the current spec, keeping the rest", () => {
    const patch = create(JobSpecSchema, { instanceCount: 4, sla: { priority: 5 } });
    const merged = patchedSpec(current, patch, storedOf(current), "spec");
    expect(merged.instanceCount).toBe(4);
    expect(merged.sla?.priority).toBe(5);
    expect(merged.sla?.maximumUnavailableInstances).toBe(1);
    expect(merged.labels).toEqual(current.labels);
    expect(merged.defaultSpec?.containers[0]?.command?.value).toBe("sleep 600");
  });

  it("refuses a list, naming it, rather than guess replace or extend", () => {
    const patch = create(JobSpecSchema, {
      defaultSpec: { containers: [{ command: { value: "sleep 1" } }] },
    });
    const e = refused(() => patchedSpec(current, patch, storedOf(current), "spec"));
    expect(e.code).toBe(Code.Unimplemented);
    expect(e.message).toMatch(/^spec\.defaultSpec\.containers: /);
  });

  it("refuses a job whose config a JobSpec cannot carry", () => {
    const batch = { ...storedOf(current), type: "BATCH" };
    const e = refused(() =>
      patchedSpec(current, create(JobSpecSchema, { instanceCount: 3 }), batch, "spec"),
    );
    expect(e.code).toBe(Code.FailedPrecondition);
    expect(e.message).toContain("type");
  });
});

/** The config a job created from `spec` stores (v0's JobConfig as protobuf JSON). */
function storedOf(spec: JobSpec): Record<string, unknown> {
  return toJson(JobConfigSchema, jobConfigOf(spec, "spec")) as Record<string, unknown>;
}
