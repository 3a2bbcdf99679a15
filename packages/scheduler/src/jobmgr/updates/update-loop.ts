/**
 * The update workflow's loop (leader only): every tick, each update that is
 * rolling (not paused, not finished) takes one step (update-step.ts). It is
 * kicked when an update is created or resumed (the "updates" announcement)
 * and when runs start or end (the task writer's commits), and runs on a
 * period for what those miss (a health check turning HEALTHY). Its state is
 * only in PostgreSQL, so a new leader's loop continues every update.
 */
import type { StorageGateway } from "@peloton/storage";
import type { Logger } from "../../common/logger.ts";
import { PeriodicLoop, type SchedulerLoop } from "../../common/loop.ts";
import { type StepOutcome, stepUpdate } from "./update-step.ts";

export interface UpdateStepReport {
  updateId: string;
  outcome: StepOutcome;
  /** The scheduler's CPU time spent on the step (user + system), in ms. */
  cpuMs: number;
  wallMs: number;
}

export interface UpdateLoopOptions {
  gateway: StorageGateway;
  log: Logger;
  /** Default 500 ms. */
  periodMs?: number;
  /** How long a run without a health check must be RUNNING to count as done. Default 1 s. */
  watchMs?: number;
  /** Told about every step that changed something (benchmarks measure the workflow's cost). */
  onStep?: (report: UpdateStepReport) => void;
  /** A step moved the job's instances: the job manager drives them now, not on the announcement. */
  onMoved?: (jobId: string) => void;
}

export class UpdateLoop implements SchedulerLoop {
  readonly name = "update-workflow";
  private readonly loop: PeriodicLoop;
  private wakeTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: UpdateLoopOptions) {
    this.loop = new PeriodicLoop({
      name: this.name,
      periodMs: opts.periodMs ?? 500,
      log: opts.log,
      tick: () => this.tick(),
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    clearTimeout(this.wakeTimer);
    return this.loop.stop();
  }

  kick(): void {
    this.loop.kick();
  }

  private async tick(): Promise<void> {
    const running = await this.opts.gateway.updates.running();
    let wake: Date | null = null;
    for (const u of running) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      let outcome: StepOutcome;
      try {
        const step = await stepUpdate(
          this.opts.gateway,
          u.id,
          this.opts.watchMs !== undefined ? { watchMs: this.opts.watchMs } : {},
        );
        outcome = step.outcome;
        if (step.recheckAt && (wake === null || step.recheckAt < wake)) wake = step.recheckAt;
      } catch (err) {
        this.opts.log.error({ err, updateId: u.id }, "update step failed");
        continue;
      }
      if (outcome === "idle") continue;
      const used = process.cpuUsage(cpu);
      const report = {
        updateId: u.id,
        outcome,
        cpuMs: (used.user + used.system) / 1000,
        wallMs: performance.now() - started,
      };
      this.opts.log.debug(report, "update step");
      this.opts.onStep?.(report);
      // Started instances or a new state: the next step may follow at once (a rollback's first batch).
      if (outcome === "progressed") {
        this.opts.onMoved?.(u.jobId);
        this.loop.kick();
      }
    }
    // An instance leaving its watch period is done then: look again at that moment, not a period later.
    clearTimeout(this.wakeTimer);
    if (wake !== null)
      this.wakeTimer = setTimeout(() => this.kick(), Math.max(0, wake.getTime() - Date.now()));
  }
}
