/**
 * The sandbox directory a log read carries from its previous page comes
 * from the client: only the run's own sandbox is used as given.
 */
import { describe, expect, it } from "vitest";
import { isSandboxOf } from "../src/hostmgr/mesos/sandbox-logs.ts";

const root = "/data/mesos-sim/slaves/S1/frameworks/fw-1/executors";

describe("isSandboxOf", () => {
  it("accepts the run's sandbox: a command task's or a pod task's folder", () => {
    expect(isSandboxOf(`${root}/job-1-0-1/runs/c-9`, "fw-1", "job-1-0-1")).toBe(true);
    expect(isSandboxOf(`${root}/pod-exec/runs/c-9/tasks/job-1-0-1`, "fw-1", "job-1-0-1")).toBe(
      true,
    );
  });

  it("refuses other tasks, other frameworks and paths that climb out", () => {
    expect(isSandboxOf(`${root}/job-2-0-1/runs/c-9`, "fw-1", "job-1-0-1")).toBe(false);
    expect(isSandboxOf(`${root}/job-1-0-1/runs/c-9`, "fw-2", "job-1-0-1")).toBe(false);
    expect(isSandboxOf(`${root}/job-1-0-1/runs/..`, "fw-1", "job-1-0-1")).toBe(false);
    expect(isSandboxOf(`${root}/job-1-0-1/runs/c-9/../../..`, "fw-1", "job-1-0-1")).toBe(false);
    expect(isSandboxOf("/etc", "fw-1", "job-1-0-1")).toBe(false);
  });
});
