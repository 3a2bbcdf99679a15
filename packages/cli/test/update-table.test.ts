/** Peloton's `update get` / `update list` rows, and the lines of the update verbs. */
import { describe, expect, it } from "vitest";
import { formatTable } from "../src/output.ts";
import {
  UPDATE_LIST_HEADER,
  updateActed,
  updateCreated,
  updateRow,
  versionsText,
} from "../src/updates/update-table.ts";

const ID = "0b5a3c1e-6f0d-4c4e-9a51-7d2f0e1c9a10";
const update = {
  id: ID,
  kind: "UPDATE",
  state: "ROLLING_FORWARD",
  numTasksDone: 4,
  numTasksFailed: 1,
  numTasksRemaining: 5,
  fromVersion: 1,
  toVersion: 2,
  actor: "alice",
  createdAt: new Date("2026-11-28T19:30:12.345Z"),
};

describe("update rows", () => {
  it("starts with Peloton's five columns, in Peloton's order (completed, failed, remaining)", () => {
    expect(UPDATE_LIST_HEADER.slice(0, 5)).toEqual([
      "Update-ID",
      "State",
      "NumberTasksCompleted",
      "NumberTasksFailed",
      "NumberTasksRemaining",
    ]);
    expect(updateRow(update)).toEqual([
      ID,
      "ROLLING_FORWARD",
      "4",
      "1",
      "5",
      "UPDATE",
      "1 -> 2",
      "alice",
      "2026-11-28T19:30:12Z",
    ]);
  });

  it("shows one version for a workflow that keeps it (a rolling restart), nothing for no actor", () => {
    const restart = { ...update, kind: "RESTART", fromVersion: 3, toVersion: 3, actor: null };
    expect(versionsText(restart)).toBe("3");
    const row = updateRow(restart);
    expect(row[6]).toBe("3");
    expect(row[7]).toBe("");
  });

  it("lines up as a table", () => {
    const [header, row] = formatTable(UPDATE_LIST_HEADER, [updateRow(update)]).split("\n");
    expect(header!.split(/\s{2,}/)).toEqual([...UPDATE_LIST_HEADER]);
    expect(row!.split(/\s{2,}/)[0]).toBe(ID);
  });
});

describe("update answers", () => {
  it("prints Peloton's line for a created update", () => {
    expect(updateCreated(ID)).toBe(`Job update ${ID} created`);
  });

  it.each([
    ["pause", "PAUSED", `Job update ${ID} paused (state PAUSED)`],
    ["resume", "ROLLING_FORWARD", `Job update ${ID} resumed (state ROLLING_FORWARD)`],
    ["abort", "ABORTED", `Job update ${ID} aborted (state ABORTED)`],
    [
      "rollback",
      "ROLLING_BACKWARD",
      `Job update ${ID} rolling back to configuration version 1 (state ROLLING_BACKWARD)`,
    ],
  ] as const)("says what %s did and the state it left", (verb, state, line) => {
    expect(updateActed(verb, { ...update, state })).toBe(line);
  });
});
