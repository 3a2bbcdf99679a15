/**
 * The leader's scheduling loops around one task writer, and what wakes them:
 *
 *   announcements (LISTEN) ── jobs ──▶ goal states (intent moved?) + admission + preemptor
 *                          ── pools ─▶ admission; preemptor when a pool is named (an edit,
 *                                     a submission), at most every 2 s
 *                          ── hosts ─▶ goal states (daemons follow drains; at most once a second)
 *   host manager: hosts recorded or gone ─▶ goal states (daemons) + admission + placement
 *                                           + preemptor
 *   preemptor: victims recorded ─▶ kills sent (Killer); sent back to PENDING ─▶ admission
 *   task writer commits ── into PENDING / out of an allocating state ─▶ admission
 *                       ── into READY ─▶ placement
 *                       ── into INITIALIZED (a new run) ─▶ goal states
 *   status updates ─▶ StatusUpdates ─▶ task writer (the host manager acks after)
 *
 * Every loop also runs on its period, so a lost announcement only delays.
 */
import { holdsAllocation } from "@peloton/engine";
import type { ChangeListener, StorageGateway, TaskChange } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import type { SchedulerLoop } from "../common/loop.ts";
import type { HostAdapter, StatusHandler } from "../hostmgr/host-adapter.ts";
import { PlacementLoop, type PlacementLoopOptions } from "../placement/placement-loop.ts";
import { AdmissionLoop } from "../resmgr/admission-loop.ts";
import {
  PreemptorLoop,
  type PreemptorLoopOptions,
  type PreemptorTuning,
} from "../resmgr/preemptor-loop.ts";
import { JobConfigs } from "../taskwriter/job-configs.ts";
import { TaskWriter, type TaskWriterOptions } from "../taskwriter/task-writer.ts";
import { GoalStateLoop, type GoalStateLoopOptions } from "./goal-state-loop.ts";
import { Killer } from "./kills.ts";
import { StatusUpdates } from "./status-updates.ts";

export interface JobManagerTuning {
  writer?: TaskWriterOptions;
  statusWindowMs?: number;
  /** How often the counts of updates about ended or unknown runs are logged. Default 5 s. */
  statusSummaryMs?: number;
  admissionPeriodMs?: number;
  placement?: Partial<
    Pick<
      PlacementLoopOptions,
      "periodMs" | "batchSize" | "chunkSize" | "launchConcurrency" | "launchedAfterMs"
    >
  >;
  goalState?: Partial<Pick<GoalStateLoopOptions, "periodMs" | "fullScanMs" | "clusterTimeoutMs">>;
  /** The preemptor's period and sustained count; `enabled: false` runs none. */
  preemption?: PreemptorTuning & Pick<PreemptorLoopOptions, "onCycle"> & { enabled?: boolean };
}

export interface JobManagerOptions extends JobManagerTuning {
  gateway: StorageGateway;
  /** The replica's feed of committed changes (one LISTEN connection). */
  changes: Pick<ChangeListener, "subscribe">;
  log: Logger;
  /** The host manager, once it exists (it is built after the status handler it is given). */
  adapter: () => HostAdapter | undefined;
}

export class JobManager {
  readonly writer: TaskWriter;
  readonly configs: JobConfigs;
  readonly statusUpdates: StatusUpdates;
  readonly goalStates: GoalStateLoop;
  readonly admission: AdmissionLoop;
  readonly placement: PlacementLoop;
  /** Undefined when preemption is turned off. */
  readonly preemptor: PreemptorLoop | undefined;
  private readonly killer: Killer;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly opts: JobManagerOptions) {
    const { gateway, log } = opts;
    this.writer = new TaskWriter(gateway, log, opts.writer);
    this.configs = new JobConfigs(gateway);
    this.killer = new Killer(
      {
        kill: (id, o) =>
          opts.adapter()?.kill(id, o) ?? Promise.reject(new Error("no host manager")),
      },
      this.configs,
      log,
    );
    this.statusUpdates = new StatusUpdates({
      gateway,
      writer: this.writer,
      configs: this.configs,
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
      ...(opts.statusWindowMs !== undefined ? { windowMs: opts.statusWindowMs } : {}),
      ...(opts.statusSummaryMs !== undefined ? { summaryMs: opts.statusSummaryMs } : {}),
    });
    this.goalStates = new GoalStateLoop({
      gateway,
      writer: this.writer,
      configs: this.configs,
      killer: this.killer,
      adapter: opts.adapter,
      log,
      ...opts.goalState,
    });
    this.admission = new AdmissionLoop({
      gateway,
      writer: this.writer,
      configs: this.configs,
      log,
      onAdmitted: () => this.placement.kick(),
      ...(opts.admissionPeriodMs !== undefined ? { periodMs: opts.admissionPeriodMs } : {}),
    });
    this.placement = new PlacementLoop({
      gateway,
      writer: this.writer,
      configs: this.configs,
      adapter: opts.adapter,
      log,
      ...opts.placement,
    });
    const { enabled = true, ...preemption } = opts.preemption ?? {};
    this.preemptor = enabled
      ? new PreemptorLoop({
          gateway,
          writer: this.writer,
          configs: this.configs,
          log,
          kill: (orders) => this.killer.send(orders),
          onSentBack: () => this.admission.kick(),
          ...preemption,
        })
      : undefined;
    this.writer.onWritten((applied) => this.react(applied));
  }

  /** Hosts came, went or changed: daemon jobs follow, capacity moved. */
  hostsChanged(): void {
    this.goalStates.noteHosts();
    this.admission.kick();
    this.placement.kick();
    this.preemptor?.kick();
  }

  /** The host manager's status handler. */
  get onStatus(): StatusHandler {
    return this.statusUpdates.handle;
  }

  /** The loops, in start order; the last one listens for announcements. */
  loops(): SchedulerLoop[] {
    return [
      this.goalStates,
      this.admission,
      this.placement,
      ...(this.preemptor ? [this.preemptor] : []),
      {
        name: "announcements",
        start: () => this.listen(),
        stop: async () => {
          this.unsubscribe?.();
          this.unsubscribe = undefined;
        },
      },
    ];
  }

  private listen(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.opts.changes.subscribe((change) => {
      switch (change.topic) {
        case "jobs":
          this.goalStates.noteJobs(change.keys);
          this.admission.kick();
          this.preemptor?.kick();
          break;
        case "pools":
          this.admission.kick();
          // A pool edited or a job submitted names its pools; usage moving (keys null) is
          // seen on the preemptor's period: it moves all the time on a busy cluster.
          if (change.keys !== null) this.preemptor?.kick();
          break;
        case "hosts":
          // An operator's drain or bring-up arrives this way (tasks landing on hosts too).
          this.goalStates.noteHosts();
          break;
        default:
          break;
      }
    });
  }

  /** What a commit means for the loops. */
  private react(applied: readonly TaskChange[]): void {
    let admission = false;
    let placement = false;
    let goals = false;
    for (const c of applied) {
      if (c.state === c.expect.state) continue;
      if (c.state === "PENDING" || (holdsAllocation(c.expect.state) && !holdsAllocation(c.state)))
        admission = true;
      if (c.state === "READY") placement = true;
      if (c.state === "INITIALIZED") goals = true;
    }
    if (admission) this.admission.kick();
    if (placement) this.placement.kick();
    if (goals) this.goalStates.kick();
  }
}
