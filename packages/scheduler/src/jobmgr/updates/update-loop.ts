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
  /** Default 1 s. */
  periodMs?: number;
  /** Told about every step that changed something (benchmarks measure the workflow's cost). */
  onStep?: (report: UpdateStepReport) => void;
}

export class UpdateLoop implements SchedulerLoop {
  readonly name = "update-workflow";
  private readonly loop: PeriodicLoop;

  constructor(private readonly opts: UpdateLoopOptions) {
    this.loop = new PeriodicLoop({
      name: this.name,
      periodMs: opts.periodMs ?? 1_000,
      log: opts.log,
      tick: () => this.tick(),
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  kick(): void {
    this.loop.kick();
  }

  private async tick(): Promise<void> {
    const running = await this.opts.gateway.updates.running();
    for (const u of running) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      let outcome: StepOutcome;
      try {
        outcome = await stepUpdate(this.opts.gateway, u.id);
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
      if (outcome === "progressed") this.loop.kick();
    }
  }
}
