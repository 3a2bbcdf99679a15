/** Waiting for events without fixed sleeps: every wait resolves on the event or times out. */
import type { Event, MesosSchedulerClient, TaskState, TaskStatus } from "../../src/index.ts";

type Waiter = {
  match: (e: Event) => boolean;
  resolve: (e: Event) => void;
  timer: NodeJS.Timeout;
};

export class EventLog {
  readonly events: Event[] = [];
  private waiters: Waiter[] = [];

  push(event: Event): void {
    this.events.push(event);
    for (const w of [...this.waiters]) {
      if (w.match(event)) {
        clearTimeout(w.timer);
        this.waiters = this.waiters.filter((x) => x !== w);
        w.resolve(event);
      }
    }
  }

  /** The first event at index >= `from` matching `match` (already seen or still to come). */
  waitFor(
    match: (e: Event) => boolean,
    opts: { from?: number; timeoutMs?: number; what?: string } = {},
  ): Promise<Event> {
    const seen = this.events.slice(opts.from ?? 0).find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x.timer !== timer);
        const types = this.events.map((e) =>
          e.type === "UPDATE"
            ? `UPDATE(${e.update.status.task_id.value}:${e.update.status.state})`
            : e.type,
        );
        reject(new Error(`timed out waiting for ${opts.what ?? "event"}; got ${types.join(", ")}`));
      }, opts.timeoutMs ?? 3000);
      this.waiters.push({ match, resolve, timer });
    });
  }

  async update(
    taskId: string,
    state: TaskState,
    opts: { from?: number; timeoutMs?: number } = {},
  ): Promise<TaskStatus> {
    const e = await this.waitFor(
      (x) =>
        x.type === "UPDATE" &&
        x.update.status.task_id.value === taskId &&
        x.update.status.state === state,
      { ...opts, what: `${taskId} ${state}` },
    );
    return (e as Extract<Event, { type: "UPDATE" }>).update.status;
  }

  updates(taskId?: string): TaskStatus[] {
    return this.events.flatMap((e) =>
      e.type === "UPDATE" && (taskId === undefined || e.update.status.task_id.value === taskId)
        ? [e.update.status]
        : [],
    );
  }

  async offers(opts: { from?: number; timeoutMs?: number } = {}) {
    const e = await this.waitFor((x) => x.type === "OFFERS", { ...opts, what: "OFFERS" });
    return (e as Extract<Event, { type: "OFFERS" }>).offers.offers ?? [];
  }
}

export function record(client: MesosSchedulerClient): EventLog {
  const log = new EventLog();
  client.on("event", (e) => log.push(e));
  return log;
}

/** Resolves on the next emission of a client event. */
export function next<K extends "subscribed" | "disconnected" | "error">(
  client: MesosSchedulerClient,
  name: K,
  timeoutMs = 5000,
): Promise<Parameters<Parameters<MesosSchedulerClient["on"]>[1]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for client '${name}'`)),
      timeoutMs,
    );
    const off = client.on(name, ((arg: unknown) => {
      clearTimeout(timer);
      off();
      resolve(arg as never);
    }) as never);
  });
}
