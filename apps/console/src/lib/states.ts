/**
 * Colours by meaning, shared by every page that shows a state. Each map is
 * keyed by its state type, so a new state does not compile until it has a tone.
 */
import type {
  HealthState,
  HostState,
  JobState,
  TaskState,
  UpdateState,
  VolumeState,
} from "@peloton/api/schemas";

export type Tone = "ok" | "warn" | "bad" | "info" | "idle";

const TASK_TONES: Record<TaskState, Tone> = {
  RUNNING: "ok",
  SUCCEEDED: "ok",
  PENDING: "warn",
  READY: "info",
  PLACING: "info",
  PLACED: "info",
  LAUNCHING: "info",
  LAUNCHED: "info",
  STARTING: "info",
  INITIALIZED: "idle",
  FAILED: "bad",
  // The cluster lost the run (its agent, a restart): not the task's failure, and it is replaced.
  LOST: "warn",
  PREEMPTING: "warn",
  KILLING: "warn",
  KILLED: "idle",
  DELETED: "idle",
  UNKNOWN: "idle",
};

/** A job's state reads like its tasks' (UNINITIALIZED: not yet written out, like INITIALIZED). */
const JOB_TONES: Record<JobState, Tone> = {
  RUNNING: "ok",
  SUCCEEDED: "ok",
  PENDING: "warn",
  KILLING: "warn",
  FAILED: "bad",
  INITIALIZED: "idle",
  UNINITIALIZED: "idle",
  KILLED: "idle",
  DELETED: "idle",
  UNKNOWN: "idle",
};

/** Maintenance is planned (warn while tasks leave, info once DOWN); a LOST agent is the failure. */
const HOST_TONES: Record<HostState, Tone> = {
  UP: "ok",
  DRAINING: "warn",
  DRAINED: "idle",
  DOWN: "info",
  LOST: "bad",
};

/** A volume waiting for its first launch to create it is on its way (info), as a placed task is. */
const VOLUME_TONES: Record<VolumeState, Tone> = {
  INITIALIZED: "info",
  CREATED: "ok",
  DELETED: "idle",
};

/** A run's health (orthogonal to its state): not known yet reads as on its way. */
const HEALTH_TONES: Record<HealthState, Tone> = {
  HEALTHY: "ok",
  UNHEALTHY: "bad",
  HEALTH_UNKNOWN: "info",
  DISABLED: "idle",
};

/** An update (rolling update, restart, start, stop): moving is info, held is warn, how it ended says the rest. */
const UPDATE_TONES: Record<UpdateState, Tone> = {
  INITIALIZED: "idle",
  ROLLING_FORWARD: "info",
  ROLLING_BACKWARD: "warn",
  PAUSED: "warn",
  SUCCEEDED: "ok",
  ROLLED_BACK: "warn",
  ABORTED: "idle",
  FAILED: "bad",
};

/** Strings from a URL or an older server may name no state: those read as idle. */
const toneIn =
  <S extends string>(tones: Record<S, Tone>) =>
  (s: string): Tone =>
    (tones as Partial<Record<string, Tone>>)[s] ?? "idle";

export const taskTone = toneIn(TASK_TONES);
export const jobTone = toneIn(JOB_TONES);
export const hostTone = toneIn(HOST_TONES);
export const volumeTone = toneIn(VOLUME_TONES);
export const healthTone = toneIn(HEALTH_TONES);
export const updateTone = toneIn(UPDATE_TONES);

export const TONE_DOT: Record<Tone, string> = {
  ok: "bg-ok",
  warn: "bg-warn",
  bad: "bg-bad",
  info: "bg-info",
  idle: "bg-idle",
};

/** Task and job states in lifecycle order (the engine's), for counts and filters. */
export { JOB_STATES as JOB_ORDER, TASK_STATES as TASK_ORDER } from "@peloton/api/schemas";

/**
 * A service instance in a crash loop: its last run failed and its next one
 * waits out the restart backoff (the job manager's reason CRASH_LOOP_BACKOFF,
 * engine crash-loop.ts). Shown as failing, not as a quiet INITIALIZED.
 */
export function isCrashLooping(t: { state: string; reason: string | null }): boolean {
  return t.state === "INITIALIZED" && t.reason === "CRASH_LOOP_BACKOFF";
}
