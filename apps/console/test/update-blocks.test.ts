/** Which update verbs apply now, and the reason shown when one does not. */

import type { UpdateState } from "@peloton/api/schemas";
import { describe, expect, it } from "vitest";
import {
  isActiveUpdate,
  jobUpdateBlocks,
  updateActionBlocks,
} from "../src/components/jobs/updates/update-blocks.ts";

const update = (
  state: UpdateState,
  more: Partial<Parameters<typeof updateActionBlocks>[0]> = {},
) => ({
  state,
  previousState: null,
  fromVersion: 1,
  toVersion: 2,
  ...more,
});
const allowed = (u: Parameters<typeof updateActionBlocks>[0]) =>
  Object.entries(updateActionBlocks(u))
    .filter(([, why]) => why === undefined)
    .map(([verb]) => verb);

describe("update actions", () => {
  it.each([
    ["INITIALIZED", ["pause", "abort", "rollback"]],
    ["ROLLING_FORWARD", ["pause", "abort", "rollback"]],
    ["PAUSED", ["resume", "abort", "rollback"]],
    ["ROLLING_BACKWARD", ["pause", "abort"]],
    ["SUCCEEDED", []],
    ["ABORTED", []],
    ["FAILED", []],
    ["ROLLED_BACK", []],
  ] as const)("%s allows %j", (state, verbs) => {
    expect(allowed(update(state))).toEqual(verbs);
    expect(isActiveUpdate(update(state))).toBe(verbs.length > 0);
  });

  it("says a finished update is finished, naming its state", () => {
    expect(updateActionBlocks(update("SUCCEEDED")).pause).toBe(
      "the update has finished (SUCCEEDED)",
    );
  });

  it("does not roll back again a paused rollback; it may resume it", () => {
    const u = update("PAUSED", { previousState: "ROLLING_BACKWARD" });
    expect(allowed(u)).toEqual(["resume", "abort"]);
    expect(updateActionBlocks(u).rollback).toBe("the update is rolling back already");
  });

  it("has no rollback for a workflow that keeps the version (a rolling restart)", () => {
    const u = update("ROLLING_FORWARD", { fromVersion: 3, toVersion: 3 });
    expect(updateActionBlocks(u).rollback).toMatch(/keeps configuration version 3/);
  });
});

describe("new updates and rolling restarts of a job", () => {
  it.each([
    ["SERVICE", "RUNNING", undefined],
    ["STATEFUL", "RUNNING", undefined],
    ["DAEMON", "RUNNING", undefined],
    ["BATCH", "SUCCEEDED", /^a BATCH job is not updated in batches/],
    ["SERVICE", "DELETED", /^the job is being deleted$/],
  ] as const)("a %s job with goal %s", (type, goalState, why) => {
    const b = jobUpdateBlocks({ type, goalState });
    if (why === undefined) expect(b).toEqual({ update: undefined, rollingRestart: undefined });
    else {
      expect(b.update).toMatch(why);
      expect(b.rollingRestart).toMatch(why);
    }
  });
});
