/** CLI option values go through the API's schemas: one line naming the option and the rule. */
import { describe, expect, it } from "vitest";
import { auditList, hostList, jobQuery, jobScale, taskOptions } from "../src/options.ts";

describe("option values", () => {
  it("passes good values on, converted", () => {
    expect(jobQuery.limit("20")).toBe(20);
    expect(jobQuery.states("running,pending")).toEqual(["RUNNING", "PENDING"]);
    expect(jobQuery.states(undefined)).toEqual([]);
    expect(jobQuery.respool("/infra")).toBe("/infra");
    expect(hostList.states("up,drained")).toEqual(["UP", "DRAINED"]);
    expect(taskOptions.run(undefined)).toBeUndefined();
    expect(taskOptions.filename("stderr")).toBe("stderr");
    expect(auditList.since("24h")).toBeInstanceOf(Date);
  });

  it.each([
    [() => jobQuery.limit("5000"), '--limit: at most 500 (got "5000")'],
    [() => jobQuery.limit("ten"), '--limit: a number (got "ten")'],
    [() => auditList.limit("0"), '--limit: at least 1 (got "0")'],
    [() => jobQuery.states("RUNNING,BOGUS"), /^--states: one of UNKNOWN, .* \(got "BOGUS"\)$/],
    [
      () => hostList.states("up,sideways"),
      '--state: one of UP, DRAINING, DRAINED, DOWN, LOST (got "SIDEWAYS")',
    ],
    [() => taskOptions.filename("x"), '--filename: one of stdout, stderr (got "x")'],
    [() => taskOptions.instance("-1"), "instance: must be ≥ 0 (got -1)"],
    [() => jobScale.instances("1.5"), 'instances: must be a whole number (got "1.5")'],
    [() => jobQuery.respool("nopath"), /^--respool: a pool path looks like/],
  ])("refuses a bad value in one line (%#)", (read, message) => {
    expect(read).toThrow(message);
  });
});
