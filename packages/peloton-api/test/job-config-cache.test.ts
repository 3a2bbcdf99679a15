/**
 * JobInfo's config is converted once per job, config version and pool path,
 * and never served stale: a new version (an update) or a moved pool is
 * converted afresh.
 */
import { jobConfigSchema } from "@peloton/engine";
import { describe, expect, it } from "vitest";
import { jobConfig } from "../src/v0/job-info.ts";

const CONFIG = jobConfigSchema.parse({
  name: "web",
  type: "SERVICE",
  instanceCount: 2,
  defaultConfig: { resource: { cpuLimit: 0.1, memLimitMb: 32 }, command: { value: "sleep 1" } },
});

type Detail = Parameters<typeof jobConfig>[0];

function detail(over: { configVersion?: number; poolPath?: string; config?: unknown }): Detail {
  return {
    id: "00000000-0000-4000-8000-00000000c0de",
    configVersion: 1,
    poolPath: "/a",
    config: CONFIG,
    ...over,
  } as Detail;
}

describe("jobConfig", () => {
  it("converts a job's config version once, and serves the same message after", () => {
    const first = jobConfig(detail({}));
    expect(first.instanceCount).toBe(2);
    expect(first.respoolID?.value).toBe("/a");
    expect(jobConfig(detail({}))).toBe(first);
  });

  it("converts a new config version and a moved pool afresh", () => {
    const v2 = jobConfig(detail({ configVersion: 2, config: { ...CONFIG, instanceCount: 5 } }));
    expect(v2.instanceCount).toBe(5);
    const moved = jobConfig(detail({ poolPath: "/b" }));
    expect(moved.respoolID?.value).toBe("/b");
    expect(moved.instanceCount).toBe(2);
  });
});
