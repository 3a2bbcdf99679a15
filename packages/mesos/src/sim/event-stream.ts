/**
 * The server side of one SUBSCRIBE stream: RecordIO-framed JSON events on a
 * chunked `200` response, plus the heartbeats. Events queued in one turn of
 * the event loop go out in one write, so 10k updates do not cost 10k syscalls.
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { Event } from "../proto/events.ts";
import { encodeRecordString } from "../proto/recordio.ts";

const HEARTBEAT = encodeRecordString(JSON.stringify({ type: "HEARTBEAT" }));

export class EventStream {
  readonly id = randomUUID();
  private pending: string[] = [];
  private flushScheduled = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private closedFlag = false;
  /** Simulated partition: the socket stays open but nothing more is written. */
  private silent = false;
  private readonly closeListeners: Array<() => void> = [];

  constructor(private readonly res: ServerResponse) {
    res.once("close", () => this.markClosed());
  }

  /** Sends the 200 with the stream id; events may follow. */
  open(): void {
    this.res.writeHead(200, {
      "Content-Type": "application/json",
      "Mesos-Stream-Id": this.id,
      "Cache-Control": "no-cache",
      Connection: "keep-alive",
    });
    this.res.socket?.setNoDelay(true);
    // Headers go out now, not with the first event.
    this.res.flushHeaders();
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  send(event: Event): void {
    this.sendRaw(encodeRecordString(JSON.stringify(event)));
  }

  /** Heartbeats every `seconds`; the first one right away, as the Mesos master does. */
  startHeartbeats(seconds: number): void {
    this.sendRaw(HEARTBEAT);
    this.heartbeat = setInterval(() => this.sendRaw(HEARTBEAT), seconds * 1000);
    this.heartbeat.unref();
  }

  silence(): void {
    this.silent = true;
    this.pending = [];
  }

  /** Ends the response after flushing what is queued. */
  close(): void {
    if (this.closedFlag) return;
    this.flush();
    this.res.end();
    this.markClosed();
  }

  /** Cuts the connection without a clean end (a crashed master or a network failure). */
  destroy(): void {
    this.res.socket?.destroy();
    this.markClosed();
  }

  onClose(fn: () => void): void {
    if (this.closedFlag) fn();
    else this.closeListeners.push(fn);
  }

  private sendRaw(record: string): void {
    if (this.closedFlag || this.silent) return;
    this.pending.push(record);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.pending.length === 0 || this.closedFlag || this.silent) return;
    const chunk = this.pending.length === 1 ? this.pending[0]! : this.pending.join("");
    this.pending = [];
    this.res.write(chunk);
  }

  private markClosed(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.pending = [];
    for (const fn of this.closeListeners.splice(0)) fn();
  }
}
