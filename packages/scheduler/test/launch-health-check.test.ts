/** The task's health check goes out as the TaskInfo's Mesos HealthCheck. */
import { jobConfigSchema } from "@peloton/engine";
import { describe, expect, it } from "vitest";
import { planLaunch } from "../src/hostmgr/mesos/launch-operations.ts";
import { taskLaunchOf } from "../src/placement/task-launch.ts";

const config = jobConfigSchema.parse({
  name: "web",
  type: "SERVICE",
  instanceCount: 1,
  defaultConfig: {
    resource: { cpuLimit: 0.5, memLimitMb: 64 },
    command: { value: "sleep 600", environment: { variables: [{ name: "A", value: "1" }] } },
    healthCheck: {
      enabled: true,
      type: "COMMAND",
      initialIntervalSecs: 3,
      intervalSecs: 2,
      timeoutSecs: 1,
      maxConsecutiveFailures: 4,
      commandCheck: { command: "test -f ok" },
    },
  },
});

describe("launching a task with a health check", () => {
  it("sends Peloton's timings as Mesos' and the check command with the task's environment", () => {
    const launch = taskLaunchOf(
      {
        jobId: "j",
        jobName: "web",
        instanceId: 0,
        runId: 1,
        resources: { cpu: 0.5, gpu: 0, memory: 64, disk: 0 },
        volume: null,
      },
      config,
      { static: [], dynamic: [] },
    );
    const host = {
      hostname: "a1",
      hostId: "ag1",
      attributes: {},
      free: { cpu: 4, memMb: 4096, diskMb: 0, gpu: 0 },
      freePorts: [],
    };
    const planned = planLaunch(host, [], [launch], "peloton");
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    const op = planned.plan.operations.at(-1);
    const info = op?.type === "LAUNCH" ? op.launch.task_infos[0] : undefined;
    expect(info?.health_check).toEqual({
      type: "COMMAND",
      delay_seconds: 3,
      interval_seconds: 2,
      timeout_seconds: 1,
      consecutive_failures: 4,
      command: {
        shell: true,
        value: "test -f ok",
        environment: {
          variables: expect.arrayContaining([
            { name: "A", value: "1" },
            { name: "PELOTON_TASK_ID", value: "j-0-1" },
          ]),
        },
      },
    });
  });
});
