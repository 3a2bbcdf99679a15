/**
 * The update workflow's view as the console shows it (docs/updates.md
 * `UpdateView`). Until the `updates` router is merged these mirror the
 * contract; then they become the router's inferred outputs.
 */
import type { UpdateState } from "@peloton/engine";

export type { UpdateState };

export type BatchState = "DONE" | "CURRENT" | "WAITING" | "FAILED";

export interface UpdateOptionsView {
  batchSize: number;
  batchPercentage: number;
  stopBeforeUpdate: boolean;
  startPaused: boolean;
  rollbackOnFailure: boolean;
  maxInstanceAttempts: number;
  maxFailureInstances: number;
  inPlace: boolean;
  startTasks: boolean;
}

export interface UpdateView {
  id: string;
  jobId: string;
  jobName: string;
  kind: "UPDATE" | "RESTART" | "START" | "STOP";
  state: UpdateState;
  previousState: UpdateState | null;
  options: UpdateOptionsView;
  fromVersion: number;
  toVersion: number;
  instancesTotal: number;
  numTasksDone: number;
  numTasksRemaining: number;
  numTasksFailed: number;
  instancesCurrent: number[];
  batches: { index: number; instances: number[]; state: BatchState }[];
  actor: string | null;
  message: string | null;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}
