/**
 * Status updates from Mesos to the handler and back: each update is turned
 * into the scheduler's terms, handed to the handler, and acknowledged only
 * after the handler's promise resolved (its write committed). A bounded
 * number are in flight at once; Mesos keeps the updates of one task in
 * order by sending the next only after the previous was acknowledged.
 */
import { taskStateFromMesos } from "@peloton/engine";
import type { TaskStatus } from "@peloton/mesos";
import type { Logger } from "../../common/logger.ts";
import type { StatusHandler, TaskStatusUpdate } from "../host-adapter.ts";

export function toStatusUpdate(
  status: TaskStatus,
  hostnameOf: (agentId: string) => string | undefined,
): TaskStatusUpdate {
  const agentId = status.agent_id?.value ?? null;
  return {
    taskId: status.task_id.value,
    state: taskStateFromMesos({ state: status.state }).state,
    clusterState: status.state,
    reason: status.reason ?? null,
    // PostgreSQL text cannot hold NUL: one such byte in an executor's message
    // would fail its whole batch, and the cluster would re-send it forever.
    message: status.message?.replaceAll("\u0000", "") ?? null,
    hostId: agentId,
    hostname: agentId !== null ? (hostnameOf(agentId) ?? null) : null,
    at: status.timestamp !== undefined ? new Date(status.timestamp * 1000) : new Date(),
    reconciliation: status.reason === "REASON_RECONCILIATION",
    healthy: status.healthy ?? null,
  };
}

export class StatusPipeline {
  private readonly queue: TaskStatus[] = [];
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly opts: {
      handler: StatusHandler;
      acknowledge: (status: TaskStatus) => Promise<void>;
      hostnameOf: (agentId: string) => string | undefined;
      log: Logger;
      concurrency?: number;
    },
  ) {}

  push(status: TaskStatus): void {
    this.queue.push(status);
    this.pump();
  }

  /** Resolves when nothing is queued or in flight. */
  idle(): Promise<void> {
    if (this.inFlight === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops what has not started: those updates stay unacknowledged and Mesos sends them again. */
  clear(): void {
    this.queue.length = 0;
    this.settleIfIdle();
  }

  private pump(): void {
    const limit = this.opts.concurrency ?? 16;
    while (this.inFlight < limit && this.queue.length > 0) {
      const status = this.queue.shift()!;
      this.inFlight++;
      void this.process(status).finally(() => {
        this.inFlight--;
        this.pump();
        this.settleIfIdle();
      });
    }
  }

  private async process(status: TaskStatus): Promise<void> {
    const update = toStatusUpdate(status, this.opts.hostnameOf);
    try {
      await this.opts.handler(update);
    } catch (err) {
      // Not acknowledged: Mesos re-sends it, and the handler gets another chance.
      this.opts.log.error(
        { err, taskId: update.taskId, state: status.state },
        "status update not recorded; it will be re-sent",
      );
      return;
    }
    try {
      await this.opts.acknowledge(status);
    } catch (err) {
      this.opts.log.warn(
        { err, taskId: update.taskId },
        "acknowledgement failed; the update will be re-sent",
      );
    }
  }

  private settleIfIdle(): void {
    if (this.inFlight === 0 && this.queue.length === 0) {
      for (const w of this.idleWaiters.splice(0)) w();
    }
  }
}
