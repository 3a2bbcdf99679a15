/**
 * What mesos-sim checkpoints, as a Mesos agent with checkpointing keeps its
 * `meta/` directory: agents (ids, resources with their reservations and
 * volumes), frameworks, live tasks (with the process that runs them) and the
 * status updates not yet acknowledged.
 *
 * The state is a fold of journal records over a snapshot. Every record is
 * an idempotent upsert or removal, so replaying a journal twice over the
 * same snapshot changes nothing.
 */
import type { TaskState } from "../../proto/enums.ts";
import type { FrameworkInfo, Resource, TaskInfo, TaskStatus } from "../../proto/messages.ts";
import type { AgentSpec } from "../cluster.ts";

export interface AgentRecord {
  id: string;
  hostname: string;
  /** The spec it was started from (re-used for agents added at run time). */
  spec: AgentSpec;
  /** Its resources now: RESERVE and CREATE change them in place. */
  total: Resource[];
  /** Added through `/sim/agents` or `addAgent` after start: re-added on recovery. */
  dynamic: boolean;
  /** Its HTTP port: asked for again on recovery. */
  port?: number;
}

export interface FrameworkRecord {
  id: string;
  info: FrameworkInfo;
}

/** How a task runs: a real process (group leader `pid`) or a simulated run. */
export type RunRecord =
  | {
      kind: "process";
      /** Undefined until the process is spawned. */
      pid?: number;
      /** Field 22 of /proc/<pid>/stat: tells our process from a later one with the same pid. */
      startTime?: string;
      /** Where the executor writes its pid and the command's exit status. */
      metaDir: string;
    }
  | {
      kind: "simulated";
      /** undefined = runs until killed. */
      durationMs: number | undefined;
      exitCode: number;
      /** ms since the epoch. */
      startedAt: number;
    };

export interface TaskRecord {
  frameworkId: string;
  taskId: string;
  agentId: string;
  executorId: string;
  containerId: string;
  info: TaskInfo;
  resources: Resource[];
  state: TaskState;
  sandbox: string | undefined;
  /** The LAUNCH_GROUP executor it belongs to, with the resources the executor holds. */
  group: { executorId: string; containerId: string; resources: Resource[] } | undefined;
  killRequested: boolean;
  run: RunRecord | undefined;
}

/** A finished task whose sandbox is kept: its logs stay readable after a restart. */
export interface CompletedRecord {
  frameworkId: string;
  taskId: string;
  agentId: string;
  executorId: string;
  containerId: string;
  name: string;
  state: TaskState;
  sandbox: string;
  resources: Resource[];
}

/** Finished tasks kept in the checkpoint (oldest dropped first). */
export const MAX_CHECKPOINTED_COMPLETED = 10_000;

export type CheckpointRecord =
  | { t: "agent"; agent: AgentRecord }
  | { t: "agent_removed"; id: string }
  | { t: "framework"; framework: FrameworkRecord }
  | { t: "framework_removed"; id: string }
  /** Not recovered (it did not ask for checkpointing): forgotten, its id not refused. */
  | { t: "framework_forgotten"; id: string }
  | { t: "task"; task: TaskRecord }
  | {
      t: "task_update";
      frameworkId: string;
      taskId: string;
      set: Partial<Pick<TaskRecord, "state" | "killRequested" | "run" | "sandbox">>;
    }
  | { t: "task_removed"; frameworkId: string; taskId: string }
  /** The task is forgotten as live and kept as finished (with its sandbox). */
  | { t: "completed"; task: CompletedRecord }
  | { t: "update"; frameworkId: string; status: TaskStatus }
  | { t: "ack"; frameworkId: string; taskId: string; uuid: string };

export interface CheckpointState {
  /** /proc/sys/kernel/random/boot_id when written: after a reboot no recorded process runs. */
  bootId: string | undefined;
  agents: Map<string, AgentRecord>;
  frameworks: Map<string, FrameworkRecord>;
  removedFrameworks: Set<string>;
  /** `${frameworkId}/${taskId}` → task. */
  tasks: Map<string, TaskRecord>;
  /** frameworkId → taskId → unacknowledged updates, oldest first. */
  updates: Map<string, Map<string, TaskStatus[]>>;
  /** `${frameworkId}/${taskId}` → finished task, oldest first. */
  completed: Map<string, CompletedRecord>;
}

export function emptyState(): CheckpointState {
  return {
    bootId: undefined,
    agents: new Map(),
    frameworks: new Map(),
    removedFrameworks: new Set(),
    tasks: new Map(),
    updates: new Map(),
    completed: new Map(),
  };
}

export function taskKey(frameworkId: string, taskId: string): string {
  return `${frameworkId}/${taskId}`;
}

export function applyRecord(state: CheckpointState, r: CheckpointRecord): void {
  switch (r.t) {
    case "agent":
      state.agents.set(r.agent.id, r.agent);
      return;
    case "agent_removed":
      state.agents.delete(r.id);
      return;
    case "framework":
      state.frameworks.set(r.framework.id, r.framework);
      return;
    case "framework_removed":
      // Its tasks stay recorded until their processes have ended (they are being killed):
      // a crash meanwhile leaves no process the checkpoint does not name.
      state.frameworks.delete(r.id);
      state.removedFrameworks.add(r.id);
      state.updates.delete(r.id);
      return;
    case "framework_forgotten":
      state.frameworks.delete(r.id);
      state.updates.delete(r.id);
      for (const [key, task] of state.tasks) if (task.frameworkId === r.id) state.tasks.delete(key);
      return;
    case "task":
      state.tasks.set(taskKey(r.task.frameworkId, r.task.taskId), r.task);
      return;
    case "task_update": {
      const key = taskKey(r.frameworkId, r.taskId);
      const task = state.tasks.get(key);
      if (task !== undefined) state.tasks.set(key, { ...task, ...r.set });
      return;
    }
    case "task_removed":
      state.tasks.delete(taskKey(r.frameworkId, r.taskId));
      state.updates.get(r.frameworkId)?.delete(r.taskId);
      return;
    case "completed": {
      const key = taskKey(r.task.frameworkId, r.task.taskId);
      state.tasks.delete(key);
      state.updates.get(r.task.frameworkId)?.delete(r.task.taskId);
      state.completed.delete(key);
      state.completed.set(key, r.task);
      if (state.completed.size > MAX_CHECKPOINTED_COMPLETED) {
        const oldest = state.completed.keys().next().value;
        if (oldest !== undefined) state.completed.delete(oldest);
      }
      return;
    }
    case "update": {
      const perTask = state.updates.get(r.frameworkId) ?? new Map<string, TaskStatus[]>();
      state.updates.set(r.frameworkId, perTask);
      const taskId = r.status.task_id.value;
      const list = perTask.get(taskId) ?? [];
      if (!list.some((s) => s.uuid === r.status.uuid)) list.push(r.status);
      perTask.set(taskId, list);
      return;
    }
    case "ack": {
      const perTask = state.updates.get(r.frameworkId);
      const list = perTask?.get(r.taskId);
      if (perTask === undefined || list === undefined) return;
      const rest = list.filter((s) => s.uuid !== r.uuid);
      if (rest.length === 0) perTask.delete(r.taskId);
      else perTask.set(r.taskId, rest);
      return;
    }
  }
}

/** The snapshot file's JSON form. */
export interface SnapshotJson {
  version: 1;
  /** The journal to replay over this snapshot (a file name in the same folder). */
  journal: string;
  bootId: string | undefined;
  agents: AgentRecord[];
  frameworks: FrameworkRecord[];
  removedFrameworks: string[];
  tasks: TaskRecord[];
  updates: Array<{ frameworkId: string; statuses: TaskStatus[] }>;
  completed?: CompletedRecord[];
}

export function toSnapshot(state: CheckpointState, journal: string): SnapshotJson {
  return {
    version: 1,
    journal,
    bootId: state.bootId,
    agents: [...state.agents.values()],
    frameworks: [...state.frameworks.values()],
    removedFrameworks: [...state.removedFrameworks],
    tasks: [...state.tasks.values()],
    updates: [...state.updates].map(([frameworkId, perTask]) => ({
      frameworkId,
      statuses: [...perTask.values()].flat(),
    })),
    completed: [...state.completed.values()],
  };
}

export function fromSnapshot(json: SnapshotJson): CheckpointState {
  const state = emptyState();
  state.bootId = json.bootId;
  for (const a of json.agents) state.agents.set(a.id, a);
  for (const f of json.frameworks) state.frameworks.set(f.id, f);
  for (const id of json.removedFrameworks) state.removedFrameworks.add(id);
  for (const t of json.tasks) state.tasks.set(taskKey(t.frameworkId, t.taskId), t);
  for (const c of json.completed ?? []) state.completed.set(taskKey(c.frameworkId, c.taskId), c);
  for (const u of json.updates) {
    for (const status of u.statuses) {
      applyRecord(state, { t: "update", frameworkId: u.frameworkId, status });
    }
  }
  return state;
}
