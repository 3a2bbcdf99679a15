/**
 * The task side of the master and its agents: launching (process or
 * simulated), the state machine STARTING → RUNNING → terminal, KILL with a
 * grace period, reconciliation, and what an agent loss does to tasks.
 * Agent-side state changes become reliable (uuid) updates; master-side
 * answers are sent once without a uuid.
 */

import type { KillBody, ReconcileTask, ShutdownBody } from "../proto/calls.ts";
import type { TaskState, TaskStatusReason, TaskStatusSource } from "../proto/enums.ts";
import { isTerminalState } from "../proto/enums.ts";
import type { TaskInfo, TaskStatus } from "../proto/messages.ts";
import { ResourceBag } from "../resources/bag.ts";
import type { SimAgent } from "./agent.ts";
import { taskRecord } from "./checkpoint/capture.ts";
import type { CompletedRecord, TaskRecord } from "./checkpoint/records.ts";
import {
  type RunCallbacks,
  type RunOutcome,
  signalGroup,
  type TaskRun,
} from "./executor-process.ts";
import { isRunnableHealthCheck, startHealthChecker } from "./health-checker.ts";
import type { Master } from "./master.ts";
import type { SimExecutor, SimFramework, SimTask } from "./model.ts";
import { type KnownTask, knownTaskAnswer, reconcileAnswer } from "./reconcile.ts";
import { agentStatus, masterStatus } from "./status.ts";
import { checkpointTask, resumeRun, startRun } from "./task-runs.ts";

/** Finished tasks remembered for log lookups (oldest forgotten first). */
const MAX_COMPLETED_TASKS = 100_000;

/** What the agent still knows of a task whose record the master dropped: its sandbox. */
export interface CompletedTask {
  frameworkId: string;
  taskId: string;
  agentId: string;
  executorId: string;
  containerId: string;
  name: string;
  state: TaskState;
  sandbox: string | undefined;
  resources: ResourceBag;
}

export class TaskManager {
  /** `${frameworkId}/${taskId}` → the finished task, for sandbox lookups after the master forgot it. */
  private readonly completed = new Map<string, CompletedTask>();
  /** Every run still alive, including those of removed frameworks in their grace period. */
  private readonly live = new Set<TaskRun>();

  constructor(private readonly master: Master) {}

  // ---- launch -----------------------------------------------------------

  launch(
    fw: SimFramework,
    agent: SimAgent,
    info: TaskInfo,
    resources: ResourceBag,
    group?: SimExecutor,
  ): void {
    const taskId = info.task_id.value;
    const executorId = group?.executorId ?? info.executor?.executor_id.value ?? taskId;
    const containerId = group?.containerId ?? this.master.newContainerId();
    const task: SimTask = {
      frameworkId: fw.id,
      taskId,
      agentId: agent.id,
      executorId,
      containerId,
      info,
      resources,
      state: "TASK_STAGING",
      run: undefined,
      sandbox: undefined,
      group: group?.executorId,
      killRequested: false,
      unreachable: false,
      runRecord: undefined,
    };
    fw.tasks.set(taskId, task);
    agent.used.add(resources);
    group?.tasks.add(taskId);
    this.master.checkpoint?.append({ t: "task", task: taskRecord(task, group) });
    this.report(fw, task, "TASK_STARTING");
    task.run = this.start(fw, agent, task);
  }

  /** What a run reports to: RUNNING once it runs, its outcome once it ends. */
  private callbacks(
    fw: SimFramework,
    task: SimTask,
    runOf: () => TaskRun | undefined,
  ): RunCallbacks {
    return {
      onRunning: () => {
        if (task.state === "TASK_STARTING") {
          this.report(fw, task, "TASK_RUNNING", {
            containerStatus: {
              container_id: { value: task.containerId },
              network_infos: [{ ip_addresses: [{ ip_address: this.master.config.ip }] }],
            },
          });
          this.startHealthChecks(fw, task);
        }
      },
      onExit: (outcome: RunOutcome) => {
        const run = runOf();
        if (run !== undefined) this.live.delete(run);
        this.onExit(fw, task, outcome);
      },
    };
  }

  private start(fw: SimFramework, agent: SimAgent, task: SimTask): TaskRun | undefined {
    let run: TaskRun | undefined;
    const callbacks = this.callbacks(fw, task, () => run);
    const simulateAll = this.master.config.simulateAllTasks || agent.simulateTasks;
    try {
      run = startRun(this.master, fw, task, simulateAll, callbacks);
      this.live.add(run);
      return run;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      queueMicrotask(() => callbacks.onExit({ kind: "launch_failed", message }));
      return undefined;
    }
  }

  /**
   * The command executor's health checking: each result the checker reports
   * is a TASK_RUNNING update with `healthy` and reason
   * REASON_TASK_HEALTH_CHECK_STATUS_UPDATED; a result asking for the kill
   * kills the task (TASK_KILLING, then TASK_KILLED with `healthy: false`).
   * A simulated run has no process to check: its checks pass.
   */
  private startHealthChecks(fw: SimFramework, task: SimTask): void {
    const check = task.info.health_check;
    if (!isRunnableHealthCheck(check)) return;
    const env: Record<string, string> = { MESOS_SANDBOX: task.sandbox ?? "" };
    for (const v of task.info.command?.environment?.variables ?? []) {
      if (v.type !== "SECRET" && v.value !== undefined) env[v.name] = v.value;
    }
    task.healthChecker = startHealthChecker({
      check,
      sandbox: task.sandbox,
      host: this.master.config.ip,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
      onResult: (result) => {
        if (task.state !== "TASK_RUNNING" || task.killRequested) return;
        this.report(fw, task, "TASK_RUNNING", {
          reason: "REASON_TASK_HEALTH_CHECK_STATUS_UPDATED",
          healthy: result.healthy,
        });
        if (result.killTask) {
          task.killedUnhealthy = true;
          this.killTask(fw, task, this.graceMs(task.info.kill_policy?.grace_period));
        }
      },
    });
  }

  private onExit(fw: SimFramework, task: SimTask, outcome: RunOutcome): void {
    if (task.unreachable || isTerminalState(task.state)) return;
    if (task.killRequested) {
      const how = outcome.kind === "signaled" ? `signal ${outcome.signal}` : "kill";
      this.report(fw, task, "TASK_KILLED", {
        message: `Command terminated with ${how}`,
        // As the command executor: a task killed by its health check ends unhealthy.
        ...(task.killedUnhealthy === true ? { healthy: false } : {}),
      });
    } else if (outcome.kind === "exited" && outcome.code === 0) {
      this.report(fw, task, "TASK_FINISHED", { message: "Command exited with status 0" });
    } else if (outcome.kind === "executor_terminated") {
      // What an agent reports for a command task whose executor is gone (Mesos' executorTerminated).
      this.report(fw, task, "TASK_FAILED", {
        message: `Abnormal executor termination: ${outcome.message}`,
        reason: "REASON_EXECUTOR_TERMINATED",
        source: "SOURCE_AGENT",
      });
    } else if (outcome.kind === "launch_failed") {
      this.report(fw, task, "TASK_FAILED", {
        message: `Failed to launch the command: ${outcome.message}`,
        reason: "REASON_CONTAINER_LAUNCH_FAILED",
      });
    } else {
      const why =
        outcome.kind === "exited"
          ? `exited with status ${outcome.code}`
          : `terminated with signal ${outcome.signal}`;
      this.report(fw, task, "TASK_FAILED", {
        message: `Command ${why}`,
        reason: "REASON_COMMAND_EXECUTOR_FAILED",
      });
    }
  }

  /** An agent-side state change: recorded, resources freed if terminal, sent reliably. */
  private report(
    fw: SimFramework,
    task: SimTask,
    state: TaskState,
    extra: {
      message?: string;
      reason?: TaskStatusReason;
      source?: TaskStatusSource;
      containerStatus?: TaskStatus["container_status"];
      healthy?: boolean;
    } = {},
  ): void {
    task.state = state;
    if (isTerminalState(state)) {
      task.healthChecker?.stop();
      task.healthChecker = undefined;
    }
    checkpointTask(this.master, task, { state });
    if (isTerminalState(state)) this.release(fw, task);
    if (this.master.frameworks.get(fw.id) !== fw) {
      // A removed framework's task has ended: nobody will acknowledge it, nothing to recover.
      if (isTerminalState(state)) {
        this.master.checkpoint?.append({
          t: "task_removed",
          frameworkId: fw.id,
          taskId: task.taskId,
        });
      }
      return;
    }
    const status = agentStatus({
      taskId: task.taskId,
      agentId: task.agentId,
      executorId: task.executorId,
      state,
      ...extra,
    });
    this.master.checkpoint?.append({ t: "update", frameworkId: fw.id, status });
    fw.updates.enqueue(status);
  }

  private release(fw: SimFramework, task: SimTask): void {
    task.run = undefined;
    const agent = this.master.agents.get(task.agentId);
    agent?.used.subtract(task.resources);
    if (task.group !== undefined) {
      const key = `${task.agentId}/${task.group}`;
      const executor = fw.executors.get(key);
      executor?.tasks.delete(task.taskId);
      if (executor !== undefined && executor.tasks.size === 0) {
        fw.executors.delete(key);
        agent?.used.subtract(executor.resources);
      }
    }
    this.master.allocator.schedule();
  }

  /** The terminal update of a task was acknowledged: the master forgets the task. */
  onAcknowledged(fw: SimFramework, status: TaskStatus): void {
    const checkpoint = this.master.checkpoint;
    if (checkpoint !== undefined && status.uuid !== undefined) {
      checkpoint.append({
        t: "ack",
        frameworkId: fw.id,
        taskId: status.task_id.value,
        uuid: status.uuid,
      });
    }
    if (!isTerminalState(status.state)) return;
    const task = fw.tasks.get(status.task_id.value);
    if (task === undefined || !isTerminalState(task.state)) return;
    fw.tasks.delete(task.taskId);
    if (task.sandbox === undefined) {
      checkpoint?.append({ t: "task_removed", frameworkId: fw.id, taskId: task.taskId });
    } else {
      checkpoint?.append({
        t: "completed",
        task: {
          frameworkId: fw.id,
          taskId: task.taskId,
          agentId: task.agentId,
          executorId: task.executorId,
          containerId: task.containerId,
          name: task.info.name,
          state: task.state,
          sandbox: task.sandbox,
          resources: task.resources.toResources(),
        },
      });
    }
    this.remember(task);
  }

  // ---- kill -------------------------------------------------------------

  kill(fw: SimFramework, body: KillBody): void {
    const taskId = body.task_id.value;
    const task = fw.tasks.get(taskId);
    if (task === undefined) {
      const unreachable = fw.unreachable.has(taskId);
      fw.sendStatus(
        masterStatus({
          taskId,
          state: fw.partitionAware
            ? unreachable
              ? "TASK_UNREACHABLE"
              : "TASK_UNKNOWN"
            : "TASK_LOST",
          reason: "REASON_TASK_UNKNOWN",
          message: unreachable
            ? "Attempted to kill an unreachable task"
            : "Attempted to kill an unknown task",
          ...(body.agent_id !== undefined ? { agentId: body.agent_id.value } : {}),
        }),
      );
      return;
    }
    if (isTerminalState(task.state)) return;
    const graceMs = this.graceMs(
      body.kill_policy?.grace_period ?? task.info.kill_policy?.grace_period,
    );
    // The default executor kills the whole group when one of its tasks is killed.
    const targets =
      task.group === undefined
        ? [task]
        : [...fw.tasks.values()].filter(
            (t) => t.group === task.group && t.agentId === task.agentId,
          );
    for (const t of targets) this.killTask(fw, t, graceMs);
  }

  private killTask(fw: SimFramework, task: SimTask, graceMs: number): void {
    if (isTerminalState(task.state)) return;
    task.killRequested = true;
    checkpointTask(this.master, task, { killRequested: true });
    if (fw.has("TASK_KILLING_STATE") && task.state !== "TASK_KILLING") {
      this.report(fw, task, "TASK_KILLING");
    }
    task.run?.kill(graceMs);
  }

  shutdownExecutor(fw: SimFramework, body: ShutdownBody): void {
    const graceMs = this.graceMs(undefined);
    for (const t of [...fw.tasks.values()]) {
      if (t.executorId === body.executor_id.value && t.agentId === body.agent_id.value) {
        this.killTask(fw, t, graceMs);
      }
    }
  }

  private graceMs(grace: { nanoseconds: number | string } | undefined): number {
    if (grace === undefined) return this.master.config.defaultKillGracePeriodSeconds * 1000;
    return Math.max(0, Number(grace.nanoseconds) / 1e6);
  }

  // ---- reconciliation ---------------------------------------------------

  reconcile(fw: SimFramework, queries: readonly ReconcileTask[]): void {
    const pa = fw.partitionAware;
    if (queries.length === 0) {
      for (const task of fw.tasks.values())
        fw.sendStatus(knownTaskAnswer(asForwarded(fw, task), pa));
      for (const task of fw.unreachable.values()) fw.sendStatus(knownTaskAnswer(task, pa));
      return;
    }
    for (const q of queries) {
      const taskId = q.task_id.value;
      const live = fw.tasks.get(taskId);
      const known = live !== undefined ? asForwarded(fw, live) : fw.unreachable.get(taskId);
      const agentId = q.agent_id?.value;
      const standing = agentId !== undefined ? this.master.agentStanding(agentId) : "unknown";
      fw.sendStatus(
        reconcileAnswer(
          { taskId, ...(agentId !== undefined ? { agentId } : {}) },
          known,
          standing,
          pa,
        ),
      );
    }
  }

  // ---- agent and framework loss -----------------------------------------

  agentLost(agent: SimAgent, mode: "unreachable" | "gone"): void {
    const name = `Agent ${agent.hostname} (${agent.id}) removed`;
    for (const fw of this.master.frameworks.values()) {
      for (const task of [...fw.tasks.values()]) {
        if (task.agentId !== agent.id) continue;
        fw.tasks.delete(task.taskId);
        fw.updates.drop(task.taskId);
        this.master.checkpoint?.append({
          t: "task_removed",
          frameworkId: fw.id,
          taskId: task.taskId,
        });
        const wasTerminal = isTerminalState(task.state);
        // Before the run is destroyed: a simulated run reports its exit synchronously,
        // and a lost task must not be reported FAILED by its dying agent.
        task.unreachable = true;
        task.healthChecker?.stop();
        void task.run?.destroy();
        task.run = undefined;
        if (mode === "unreachable" && !wasTerminal) fw.unreachable.set(task.taskId, task);
        if (wasTerminal) continue;
        const state: TaskState = !fw.partitionAware
          ? "TASK_LOST"
          : mode === "unreachable"
            ? "TASK_UNREACHABLE"
            : "TASK_GONE_BY_OPERATOR";
        const status = masterStatus({
          taskId: task.taskId,
          agentId: agent.id,
          executorId: task.executorId,
          state,
          reason:
            mode === "unreachable" ? "REASON_AGENT_REMOVED" : "REASON_AGENT_REMOVED_BY_OPERATOR",
          message: name,
        });
        if (mode === "unreachable") {
          status.unreachable_time = { nanoseconds: Date.now() * 1_000_000 };
        }
        fw.sendStatus(status);
      }
      for (const key of [...fw.executors.keys()]) {
        if (key.startsWith(`${agent.id}/`)) fw.executors.delete(key);
      }
    }
  }

  /** A removed agent is back: its old tasks did not survive; the master forgets them. */
  agentReregistered(agentId: string): void {
    for (const fw of this.master.frameworks.values()) {
      for (const [id, task] of [...fw.unreachable])
        if (task.agentId === agentId) fw.unreachable.delete(id);
    }
  }

  /** The framework is gone: its tasks are killed, and nobody is told. */
  removeAllOf(fw: SimFramework): void {
    for (const task of fw.tasks.values()) {
      if (isTerminalState(task.state)) continue;
      task.killRequested = true;
      task.run?.kill(this.graceMs(task.info.kill_policy?.grace_period));
    }
  }

  /** Stops every task now (sim shutdown) and waits for the processes to be gone. */
  async destroyAll(): Promise<void> {
    for (const fw of this.master.frameworks.values()) {
      for (const task of fw.tasks.values()) {
        task.unreachable = true;
        task.healthChecker?.stop();
        // A sim recovering from this checkpoint reports them killed, not failed.
        if (!isTerminalState(task.state))
          checkpointTask(this.master, task, { killRequested: true });
      }
    }
    await Promise.all([...this.live].map((run) => run.destroy()));
    this.live.clear();
  }

  /** The sim stops and its tasks run on (checkpointing): a later sim adopts them. */
  detachAll(): void {
    for (const fw of this.master.frameworks.values())
      for (const task of fw.tasks.values()) task.healthChecker?.stop();
    for (const run of this.live) run.detach();
    this.live.clear();
  }

  /** SIGKILL to every task's process group, synchronously (the process is exiting). */
  killAllNow(): void {
    for (const run of this.live) signalGroup(run.pid, "SIGKILL");
  }

  // ---- recovery ---------------------------------------------------------

  /**
   * A task from the checkpoint, on its recovered agent: its resources are
   * used again and its run goes on where it was (see `resumeRun`).
   */
  recoverTask(fw: SimFramework, agent: SimAgent, rec: TaskRecord, sameBoot: boolean): void {
    let group: SimExecutor | undefined;
    if (rec.group !== undefined) {
      const key = `${agent.id}/${rec.group.executorId}`;
      group = fw.executors.get(key);
      if (group === undefined && !isTerminalState(rec.state)) {
        group = {
          executorId: rec.group.executorId,
          agentId: agent.id,
          resources: ResourceBag.of(rec.group.resources),
          containerId: rec.group.containerId,
          tasks: new Set(),
        };
        fw.executors.set(key, group);
        agent.used.add(group.resources);
      }
    }
    const task: SimTask = {
      frameworkId: fw.id,
      taskId: rec.taskId,
      agentId: agent.id,
      executorId: rec.executorId,
      containerId: rec.containerId,
      info: rec.info,
      resources: ResourceBag.of(rec.resources),
      state: rec.state,
      run: undefined,
      sandbox: rec.sandbox,
      group: rec.group?.executorId,
      killRequested: rec.killRequested,
      unreachable: false,
      runRecord: rec.run,
    };
    fw.tasks.set(task.taskId, task);
    if (isTerminalState(task.state)) return;
    agent.used.add(task.resources);
    group?.tasks.add(task.taskId);
    let run: TaskRun | undefined;
    run = resumeRun(
      rec,
      sameBoot,
      this.callbacks(fw, task, () => run),
    );
    if (run === undefined) return;
    task.run = run;
    this.live.add(run);
    if (task.killRequested) run.kill(this.graceMs(task.info.kill_policy?.grace_period));
    // The recovered executor checks again from the start (its checker's counts were in memory).
    else if (task.state === "TASK_RUNNING") this.startHealthChecks(fw, task);
  }

  // ---- sandboxes --------------------------------------------------------

  sandboxPath(taskId: string, frameworkId?: string): string | undefined {
    for (const fw of this.master.frameworks.values()) {
      if (frameworkId !== undefined && fw.id !== frameworkId) continue;
      const task = fw.tasks.get(taskId) ?? fw.unreachable.get(taskId);
      if (task?.sandbox !== undefined) return task.sandbox;
    }
    if (frameworkId !== undefined) return this.completed.get(`${frameworkId}/${taskId}`)?.sandbox;
    for (const [key, task] of this.completed) if (key.endsWith(`/${taskId}`)) return task.sandbox;
    return undefined;
  }

  /** Finished tasks that ran on `agentId`, oldest first (the agent's completed executors). */
  completedOn(agentId: string): CompletedTask[] {
    return [...this.completed.values()].filter((t) => t.agentId === agentId);
  }

  /** Finished tasks from the checkpoint (their sandboxes are still on disk). */
  restoreCompleted(list: Iterable<CompletedRecord>): void {
    for (const c of list) {
      this.completed.set(`${c.frameworkId}/${c.taskId}`, {
        ...c,
        resources: ResourceBag.of(c.resources),
      });
    }
  }

  private remember(task: SimTask): void {
    this.completed.set(`${task.frameworkId}/${task.taskId}`, {
      frameworkId: task.frameworkId,
      taskId: task.taskId,
      agentId: task.agentId,
      executorId: task.executorId,
      containerId: task.containerId,
      name: task.info.name,
      state: task.state,
      sandbox: task.sandbox,
      resources: task.resources,
    });
    if (this.completed.size > MAX_COMPLETED_TASKS) {
      const oldest = this.completed.keys().next().value;
      if (oldest !== undefined) this.completed.delete(oldest);
    }
  }
}

/**
 * A known task as reconciliation reports it: in the state of the update its
 * stream is forwarding, not a later one still queued behind it (Mesos's
 * `Task.status_update_state`). A task whose echo exited has STARTING,
 * RUNNING and FINISHED queued; answering FINISHED while RUNNING waits for
 * its acknowledgement would hand the scheduler FINISHED before RUNNING, and
 * the run's history would skip RUNNING.
 */
function asForwarded(fw: SimFramework, task: KnownTask): KnownTask {
  const head = fw.updates.pendingFor(task.taskId)[0];
  return head === undefined ? task : { ...task, state: head.state };
}
