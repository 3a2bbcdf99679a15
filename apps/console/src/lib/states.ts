/** Colours by meaning, shared by every page that shows a state. */
export type Tone = "ok" | "warn" | "bad" | "info" | "idle";

const TASK_TONES: Record<string, Tone> = {
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

const HOST_TONES: Record<string, Tone> = {
  UP: "ok",
  DRAINING: "warn",
  DRAINED: "idle",
  DOWN: "bad",
};

/** A volume waiting for its first launch to create it is on its way (info), as a placed task is. */
const VOLUME_TONES: Record<string, Tone> = {
  INITIALIZED: "info",
  CREATED: "ok",
  DELETED: "idle",
};

export const taskTone = (s: string): Tone => TASK_TONES[s] ?? "idle";
export const jobTone = taskTone;
export const hostTone = (s: string): Tone => HOST_TONES[s] ?? "idle";
export const volumeTone = (s: string): Tone => VOLUME_TONES[s] ?? "idle";

export const TONE_DOT: Record<Tone, string> = {
  ok: "bg-ok",
  warn: "bg-warn",
  bad: "bg-bad",
  info: "bg-info",
  idle: "bg-idle",
};

/** Task and job states in lifecycle order (the engine's), for counts and filters. */
export { JOB_STATES as JOB_ORDER, TASK_STATES as TASK_ORDER } from "@peloton/api/schemas";
