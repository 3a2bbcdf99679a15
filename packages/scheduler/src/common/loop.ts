/**
 * The shape of the scheduler's long-running loops (resource manager,
 * placement, job manager, entitlement sampler, ...): each runs its `tick` on a
 * period and whenever something `kick`s it (a change announcement, a write it
 * depends on), never two ticks at once, kicks during a tick coalesced into one
 * more tick. Only the elected leader runs them (leader.ts).
 */
import { type Clock, type ClockTimer, systemClock } from "@peloton/storage";
import type { Logger } from "./logger.ts";

export interface SchedulerLoop {
  readonly name: string;
  start(): void;
  /** Resolves once the tick in flight (if any) has finished. */
  stop(): Promise<void>;
}

export interface PeriodicLoopOptions {
  name: string;
  periodMs: number;
  tick: () => Promise<void>;
  log: Logger;
  /** Also run a tick as soon as the loop starts. Default true. */
  runOnStart?: boolean;
  /**
   * A tick still running after this long is logged as stalled (and again each
   * time as long again passes): a loop waiting on something that never comes
   * must be visible, not silent. Default 30 s.
   */
  stallMs?: number;
  /** Periods and the stall watchdog run on this. Default: the process's own time. */
  clock?: Clock;
}

export class PeriodicLoop implements SchedulerLoop {
  readonly name: string;
  private timer: ClockTimer | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  private readonly clock: Clock;

  constructor(private readonly opts: PeriodicLoopOptions) {
    this.name = opts.name;
    this.clock = opts.clock ?? systemClock;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    if (this.opts.runOnStart !== false) this.kick();
    else this.schedule();
  }

  /** Run a tick now (or right after the one in flight). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.clock.clearTimeout(this.timer);
    this.running = this.runTick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clock.clearTimeout(this.timer);
    await this.running;
  }

  private async runTick(): Promise<void> {
    const stallMs = this.opts.stallMs ?? 30_000;
    const started = this.clock.now();
    let watchdog: ClockTimer | undefined;
    const watch = () => {
      watchdog = this.clock.setTimeout(() => {
        const runningMs = Math.round(this.clock.now() - started);
        this.opts.log.warn(
          { loop: this.name, runningMs },
          `${this.name}: tick still running after ${Math.round(runningMs / 1000)} s`,
        );
        watch();
      }, stallMs);
    };
    watch();
    try {
      await this.opts.tick();
    } catch (err) {
      // A failed tick is retried by the next one; the loop itself never dies.
      this.opts.log.error({ err, loop: this.name }, `${this.name}: tick failed`);
    } finally {
      this.clock.clearTimeout(watchdog);
    }
    this.running = undefined;
    if (this.stopped) return;
    if (this.again) {
      this.again = false;
      this.running = this.runTick();
    } else this.schedule();
  }

  private schedule(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => this.kick(), this.opts.periodMs);
  }
}
