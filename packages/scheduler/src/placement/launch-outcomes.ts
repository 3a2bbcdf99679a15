/**
 * A placed task on its way to the cluster, and what its launch's outcome
 * writes (pure): LAUNCHED, or back to PENDING with the refusal as its reason.
 */
import type { TaskPlacement } from "@peloton/engine";
import type { ReadyTaskRow, TaskChange, VolumePin } from "@peloton/storage";
import type { LaunchRefusal, TaskLaunch } from "../hostmgr/host-adapter.ts";
import { EVENT_SOURCES } from "../taskwriter/event-sources.ts";

/** One placed task on its way out. */
export interface Placed {
  row: ReadyTaskRow;
  placement: TaskPlacement;
  launch: TaskLaunch;
  change: TaskChange;
  volume: VolumePin | null;
}

/**
 * A run sent to the cluster, with only what its outcome's change needs: the
 * launcher keeps these, not the placed tasks (configs, launch requests,
 * LAUNCHING changes), through the moment it gives the cluster to report.
 */
export interface SentRun {
  taskId: string;
  jobId: string;
  instanceId: number;
  runId: number;
  clusterTaskId: string;
  hostname: string;
  agentId: string;
}

export function sentRunOf(i: Placed): SentRun {
  return {
    taskId: i.row.taskId,
    jobId: i.row.jobId,
    instanceId: i.row.instanceId,
    runId: i.row.runId,
    clusterTaskId: i.launch.taskId,
    hostname: i.placement.hostname,
    agentId: i.placement.agentId,
  };
}

/** The launch's outcome as a change from LAUNCHING, with its event. */
function fromLaunching(
  r: SentRun,
  to: "LAUNCHED" | "PENDING",
  reason: string,
  message: string,
  at: Date,
  set?: TaskChange["set"],
): TaskChange {
  return {
    taskId: r.taskId,
    jobId: r.jobId,
    instanceId: r.instanceId,
    expect: { state: "LAUNCHING", runId: r.runId },
    state: to,
    reason,
    message,
    ...(set ? { set } : {}),
    events: [
      {
        runId: r.runId,
        clusterTaskId: r.clusterTaskId,
        previousState: "LAUNCHING",
        state: to,
        source: EVENT_SOURCES.placement,
        reason,
        message,
        hostname: r.hostname,
        agentId: r.agentId,
        at,
      },
    ],
  };
}

export function launched(r: SentRun, at: Date): TaskChange {
  return fromLaunching(r, "LAUNCHED", "LAUNCHED", `launched on ${r.hostname}`, at);
}

function describeRefusal(r: LaunchRefusal): string {
  switch (r.code) {
    case "LEASE_UNKNOWN":
      return "the host's offer was gone before the launch";
    case "NOT_CONNECTED":
      return "the scheduler was not connected to the cluster";
    case "DOES_NOT_FIT":
      return `the host's offer no longer had room: ${r.resource} needed ${r.needed}, free ${r.free}`;
    case "CLUSTER_ERROR":
      return `the cluster refused the launch: ${r.message}`;
  }
}

/** Nothing was started: back to PENDING (admitted and placed again), the refusal as its reason. */
export function refused(run: SentRun, r: LaunchRefusal, at: Date): TaskChange {
  const message = `launch on ${run.hostname} did not go out (${describeRefusal(r)}); placing again`;
  return fromLaunching(run, "PENDING", "LAUNCH_REFUSED", message, at, {
    clusterTaskId: null,
    hostname: null,
    agentId: null,
    ports: {},
  });
}
