/**
 * Reliable status updates of one framework (the agent's status update
 * manager, seen from the master): per task, updates wait in order; only the
 * head is outstanding; it is re-sent with exponential backoff until the
 * framework acknowledges its uuid, then the next one goes. A re-subscribed
 * framework gets every outstanding head again at once.
 */
import type { TaskStatus } from "../proto/messages.ts";

export interface RetryPolicy {
  /** First retry after this many ms (Mesos agents: 10 s). */
  initialMs: number;
  /** Backoff cap (Mesos agents: 10 min). */
  maxMs: number;
}

interface TaskStream {
  pending: TaskStatus[];
  /** ms timestamp of the next re-send of the head; 0 = not sent yet. */
  retryAt: number;
  delayMs: number;
}

export type AckResult = "acknowledged" | "unknown_task" | "uuid_mismatch";

export class StatusUpdateQueue {
  private readonly streams = new Map<string, TaskStream>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly policy: RetryPolicy,
    /** Delivers to the framework; false when it is not connected (the update stays queued). */
    private readonly deliver: (status: TaskStatus) => boolean,
    /** Called when an update leaves the queue for good (acknowledged). */
    private readonly onAcknowledged: (status: TaskStatus) => void,
  ) {}

  get size(): number {
    return this.streams.size;
  }

  enqueue(status: TaskStatus): void {
    const taskId = status.task_id.value;
    const stream = this.streams.get(taskId);
    if (stream !== undefined) {
      stream.pending.push(status);
      return;
    }
    const fresh: TaskStream = { pending: [status], retryAt: 0, delayMs: this.policy.initialMs };
    this.streams.set(taskId, fresh);
    this.sendHead(fresh);
    this.ensureSweeper();
  }

  acknowledge(taskId: string, uuid: string): AckResult {
    const stream = this.streams.get(taskId);
    if (stream === undefined) return "unknown_task";
    const head = stream.pending[0];
    if (head === undefined || head.uuid !== uuid) return "uuid_mismatch";
    stream.pending.shift();
    this.onAcknowledged(head);
    if (stream.pending.length === 0) {
      this.streams.delete(taskId);
      if (this.streams.size === 0) this.stopSweeper();
      return "acknowledged";
    }
    stream.delayMs = this.policy.initialMs;
    this.sendHead(stream);
    return "acknowledged";
  }

  /** Unacknowledged updates of `taskId`, oldest first. */
  pendingFor(taskId: string): readonly TaskStatus[] {
    return this.streams.get(taskId)?.pending ?? [];
  }

  /** After a (re-)subscription: every outstanding head goes out again now. */
  resendAll(): void {
    for (const stream of this.streams.values()) {
      stream.delayMs = this.policy.initialMs;
      this.sendHead(stream);
    }
  }

  /** Forgets the updates of one task (its agent is gone). */
  drop(taskId: string): void {
    this.streams.delete(taskId);
  }

  clear(): void {
    this.streams.clear();
    this.stopSweeper();
  }

  private sendHead(stream: TaskStream): void {
    const head = stream.pending[0];
    if (head === undefined) return;
    const delivered = this.deliver(head);
    // Not connected: wait for resendAll(); the retry clock starts when it is sent.
    stream.retryAt = delivered ? Date.now() + stream.delayMs : 0;
  }

  private sweep(): void {
    const now = Date.now();
    for (const stream of this.streams.values()) {
      if (stream.retryAt === 0 || stream.retryAt > now) continue;
      stream.delayMs = Math.min(stream.delayMs * 2, this.policy.maxMs);
      this.sendHead(stream);
    }
  }

  private ensureSweeper(): void {
    if (this.sweeper !== undefined) return;
    const every = Math.max(10, Math.min(1000, this.policy.initialMs / 4));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
