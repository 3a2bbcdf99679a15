/**
 * The job manager of a leader (Peloton's jobmgr): the goal-state loop, the
 * status updates from the host manager, and the killer that sends the kills
 * both decide. It writes through the leader's one task writer and reads the
 * leader's job configs, both handed in: the resource manager's and
 * placement's loops share them, and assembly/leader-loops.ts builds and wires
 * them all, so this folder never imports the components below it that are
 * not its own (admission, placement, the preemptor).
 *
 *   status updates ─▶ StatusUpdates ─▶ task writer (the host manager acks after)
 *                                   ─▶ kills for runs now KILLING (Killer)
 *   goal states ─▶ task writer ─▶ kills; the preemptor's victims ─▶ kill()
 */
import type { StorageGateway } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import type { HostAdapter, StatusHandler } from "../hostmgr/host-adapter.ts";
import type { JobConfigs } from "../taskwriter/job-configs.ts";
import type { KillOrder } from "../taskwriter/kill-order.ts";
import type { TaskWriter } from "../taskwriter/task-writer.ts";
import { GoalStateLoop, type GoalStateLoopOptions } from "./goal-state-loop.ts";
import { Killer } from "./kills.ts";
import { StatusUpdates } from "./status-updates.ts";
import { UpdateLoop, type UpdateLoopOptions } from "./updates/update-loop.ts";

export interface JobManagerTuning {
  statusWindowMs?: number;
  /** How often the counts of updates about ended or unknown runs are logged. Default 5 s. */
  statusSummaryMs?: number;
  goalState?: Partial<Pick<GoalStateLoopOptions, "periodMs" | "fullScanMs" | "clusterTimeoutMs">>;
  /** The update workflow's period and step reports. */
  updates?: Pick<UpdateLoopOptions, "periodMs" | "watchMs" | "onStep">;
}

export interface JobManagerOptions extends JobManagerTuning {
  gateway: StorageGateway;
  writer: TaskWriter;
  configs: JobConfigs;
  log: Logger;
  /** The host manager, once it exists (it is built after the status handler it is given). */
  adapter: () => HostAdapter | undefined;
  /** A run reported TASK_STARTING (see StatusUpdatesOptions.onStarting). */
  onStarting?: (clusterTaskId: string) => void;
}

export class JobManager {
  readonly statusUpdates: StatusUpdates;
  readonly goalStates: GoalStateLoop;
  /** The update workflow (updates/). */
  readonly updates: UpdateLoop;
  private readonly killer: Killer;

  constructor(opts: JobManagerOptions) {
    const { gateway, writer, configs, log } = opts;
    this.killer = new Killer(
      {
        kill: (id, o) =>
          opts.adapter()?.kill(id, o) ?? Promise.reject(new Error("no host manager")),
      },
      configs,
      log,
    );
    this.statusUpdates = new StatusUpdates({
      gateway,
      writer,
      configs,
      log,
      kill: (o) => this.killer.orphan(o),
      reconcile: (runs) => {
        const adapter = opts.adapter();
        if (adapter === undefined) return;
        adapter
          .reconcile(
            runs.map((r) => ({
              taskId: r.clusterTaskId,
              ...(r.agentId ? { hostId: r.agentId } : {}),
            })),
          )
          // Not asked: the run stays as it is, and the next reconciliation restates it.
          .catch((err: unknown) => log.debug({ err: String(err) }, "recheck not sent"));
      },
      onKills: (orders) => void this.killer.send(orders),
      ...(opts.onStarting ? { onStarting: opts.onStarting } : {}),
      ...(opts.statusWindowMs !== undefined ? { windowMs: opts.statusWindowMs } : {}),
      ...(opts.statusSummaryMs !== undefined ? { summaryMs: opts.statusSummaryMs } : {}),
    });
    this.goalStates = new GoalStateLoop({
      gateway,
      writer,
      configs,
      killer: this.killer,
      adapter: opts.adapter,
      log,
      ...opts.goalState,
    });
    this.updates = new UpdateLoop({
      gateway,
      log,
      onMoved: (jobId) => this.goalStates.noteJobs([jobId]),
      ...opts.updates,
    });
  }

  /** The host manager's status handler. */
  get onStatus(): StatusHandler {
    return this.statusUpdates.handle;
  }

  /** Sends kills for KILLING states another component committed (the preemptor's victims). */
  kill(orders: readonly KillOrder[]): Promise<void> {
    return this.killer.send(orders);
  }
}
