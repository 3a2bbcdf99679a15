/**
 * Every loop a leader runs, built and wired in one place: the host manager,
 * host drains, the job manager (goal states, status updates, kills), the
 * resource manager's admission and preemptor, placement, and the entitlement
 * sampler. The components sit in folders that import downward only
 * (docs/architecture.md), so what wakes one component when another commits
 * is decided here, the one file that sees them all:
 *
 *   announcements (LISTEN) ── jobs ──▶ goal states (intent moved?) + preemptor
 *                          ── pools ─▶ admission + preemptor when a pool is named (an edit,
 *                                     a submission; preemptor at most every 2 s)
 *                          ── hosts ─▶ goal states (daemons follow drains; at most once a second)
 *   host manager: hosts recorded or gone ─▶ goal states (daemons) + admission + placement
 *                                           + preemptor
 *   preemptor: victims recorded ─▶ kills sent (job manager); sent back to PENDING ─▶ admission
 *   admission: tasks admitted (in memory, AdmittedTasks) ─▶ placement
 *   task writer commits ── into PENDING / out of an allocating state ─▶ admission
 *                       ── into INITIALIZED (a new run) ─▶ goal states
 *   status updates ─▶ job manager ─▶ task writer (the host manager acks after)
 *
 * Every loop also runs on its period, so a lost announcement only delays.
 */
import { holdsAllocation, isTerminalTaskState } from "@peloton/engine";
import type { ChangeListener, StorageGateway, TaskChange } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import type { SchedulerLoop } from "../common/loop.ts";
import type {
  HostAdapter,
  HostAdapterFactory,
  RunningHostAdapter,
  StatusHandler,
} from "../hostmgr/host-adapter.ts";
import { maintenanceLoop } from "../hostmgr/maintenance-loop.ts";
import { unfinishedTasksOf } from "../hostmgr/unfinished-tasks.ts";
import { JobManager, type JobManagerTuning } from "../jobmgr/job-manager.ts";
import { PlacementLoop, type PlacementLoopOptions } from "../placement/placement-loop.ts";
import { AdmissionLoop } from "../resmgr/admission-loop.ts";
import { AdmittedTasks } from "../resmgr/admitted-tasks.ts";
import {
  PreemptorLoop,
  type PreemptorLoopOptions,
  type PreemptorTuning,
} from "../resmgr/preemptor-loop.ts";
import { createEntitlementSampler } from "../resmgr/respool/sampler.ts";
import { taskUsageCompaction } from "../resmgr/task-usage-compaction.ts";
import { JobConfigs } from "../taskwriter/job-configs.ts";
import { TaskWriter, type TaskWriterOptions } from "../taskwriter/task-writer.ts";

/** Periods and batch sizes of the scheduling loops. */
export interface SchedulingTuning extends JobManagerTuning {
  writer?: TaskWriterOptions;
  admissionPeriodMs?: number;
  placement?: Partial<
    Pick<
      PlacementLoopOptions,
      "periodMs" | "batchSize" | "chunkSize" | "launchConcurrency" | "launchedAfterMs"
    >
  >;
  /** The preemptor's period and sustained count; `enabled: false` runs none. */
  preemption?: PreemptorTuning & Pick<PreemptorLoopOptions, "onCycle"> & { enabled?: boolean };
}

export interface SchedulingOptions extends SchedulingTuning {
  gateway: StorageGateway;
  /** The replica's feed of committed changes (one LISTEN connection). */
  changes: Pick<ChangeListener, "subscribe">;
  log: Logger;
  /** The host manager, once it exists (it is built after the status handler it is given). */
  adapter: () => HostAdapter | undefined;
}

/**
 * The leader's scheduling around one task writer: the job manager, admission,
 * placement and the preemptor, and the announcements and commits that wake
 * them.
 */
export class Scheduling {
  readonly writer: TaskWriter;
  readonly configs: JobConfigs;
  readonly jobManager: JobManager;
  readonly admission: AdmissionLoop;
  readonly placement: PlacementLoop;
  /** Undefined when preemption is turned off. */
  readonly preemptor: PreemptorLoop | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly opts: SchedulingOptions) {
    const { gateway, log } = opts;
    this.writer = new TaskWriter(gateway, log, opts.writer);
    this.configs = new JobConfigs(gateway);
    this.jobManager = new JobManager({
      gateway,
      writer: this.writer,
      configs: this.configs,
      log,
      adapter: opts.adapter,
      // Its write may wait for the run's RUNNING; the launcher leaves LAUNCHED out for it.
      onStarting: (clusterTaskId) => this.placement.reported(clusterTaskId),
      ...(opts.statusWindowMs !== undefined ? { statusWindowMs: opts.statusWindowMs } : {}),
      ...(opts.statusSummaryMs !== undefined ? { statusSummaryMs: opts.statusSummaryMs } : {}),
      ...(opts.goalState ? { goalState: opts.goalState } : {}),
      ...(opts.updates ? { updates: opts.updates } : {}),
    });
    // Admitted tasks wait here for placement: READY lives in this term's memory.
    const admitted = new AdmittedTasks();
    this.admission = new AdmissionLoop({
      gateway,
      writer: this.writer,
      configs: this.configs,
      admitted,
      log,
      onAdmitted: () => this.placement.kick(),
      ...(opts.admissionPeriodMs !== undefined ? { periodMs: opts.admissionPeriodMs } : {}),
    });
    this.placement = new PlacementLoop({
      gateway,
      writer: this.writer,
      configs: this.configs,
      admitted,
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
          kill: (orders) => this.jobManager.kill(orders),
          onSentBack: () => this.admission.kick(),
          admitted,
          ...preemption,
        })
      : undefined;
    this.writer.onWritten((applied) => this.react(applied));
  }

  /** Hosts came, went or changed: daemon jobs follow, capacity moved. */
  hostsChanged(): void {
    this.jobManager.goalStates.noteHosts();
    this.admission.kick();
    this.placement.kick();
    this.preemptor?.kick();
  }

  /** The host manager's status handler. */
  get onStatus(): StatusHandler {
    return this.jobManager.onStatus;
  }

  /** The loops, in start order; the last one listens for announcements. */
  loops(): SchedulerLoop[] {
    return [
      this.jobManager.goalStates,
      this.jobManager.updates,
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
    const goalStates = this.jobManager.goalStates;
    this.unsubscribe = this.opts.changes.subscribe((change) => {
      switch (change.topic) {
        case "jobs":
          // Intent moved: the goal states act on it, and what they write into PENDING
          // or out of an allocating state wakes admission through react().
          goalStates.noteJobs(change.keys);
          this.preemptor?.kick();
          break;
        case "pools":
          // A pool edited or a job submitted names its pools. Usage moving (keys null) is
          // this leader's own writes echoed back, which react() has seen already: on a
          // busy cluster it moves with every commit, and admission would read its whole
          // queue each time (the preemptor sees it on its period).
          if (change.keys !== null) {
            this.admission.kick();
            this.preemptor?.kick();
          }
          break;
        case "updates":
          // An update created, resumed or rolled back: the workflow takes its next step.
          this.jobManager.updates.kick();
          break;
        case "hosts":
          // An operator's drain or bring-up arrives this way (tasks landing on hosts too).
          goalStates.noteHosts();
          break;
        default:
          break;
      }
    });
  }

  /** What a commit means for the loops. */
  private react(applied: readonly TaskChange[]): void {
    let admission = false;
    let goals = false;
    let runs = false;
    for (const c of applied) {
      if (c.state === c.expect.state) continue;
      if (c.state === "PENDING" || (holdsAllocation(c.expect.state) && !holdsAllocation(c.state)))
        admission = true;
      if (c.state === "INITIALIZED") goals = true;
      if (c.state === "RUNNING" || isTerminalTaskState(c.state)) runs = true;
    }
    // A run started or ended: an update in flight may have an instance done (or failed).
    if (runs) this.jobManager.updates.kick();
    if (admission) this.admission.kick();
    if (goals) this.jobManager.goalStates.kick();
  }
}

export interface LeaderLoopsOptions {
  /** The term's gateway, fenced by its epoch. */
  gateway: StorageGateway;
  changes: Pick<ChangeListener, "subscribe">;
  log: Logger;
  adapter: HostAdapterFactory;
  /** Replaces the scheduling loops: status updates go here and none of them run (host manager tests). */
  onStatus?: StatusHandler;
  scheduling?: SchedulingTuning;
  /** Period of the host maintenance loop (drains, evictions, the cluster's maintenance). */
  drainPeriodMs?: number;
  samplePeriodMs?: number;
  /** More loops, started after the host manager's and the leader's own. */
  extraLoops?: (hostManager: RunningHostAdapter) => SchedulerLoop[];
}

export interface LeaderLoops {
  hostManager: RunningHostAdapter;
  /** Undefined when `onStatus` replaced the scheduling loops. */
  scheduling: Scheduling | undefined;
  /** In start order, the host manager first: deposition stops it first. */
  loops: SchedulerLoop[];
}

/** Builds one term's loops; the caller starts them, and stops them when the term ends. */
export function leaderLoops(opts: LeaderLoopsOptions): LeaderLoops {
  const { gateway, changes, log } = opts;
  let hostManager: RunningHostAdapter | undefined;
  const scheduling = opts.onStatus
    ? undefined
    : new Scheduling({ gateway, changes, log, adapter: () => hostManager, ...opts.scheduling });
  hostManager = opts.adapter({
    gateway,
    log,
    onStatus: opts.onStatus ?? scheduling!.onStatus,
    unfinishedTasks: unfinishedTasksOf(gateway),
    // The task writer writes updates in batches: many in flight make big batches.
    statusConcurrency: scheduling ? 4_096 : 16,
    ...(scheduling ? { onHostsChanged: () => scheduling.hostsChanged() } : {}),
  });
  const loops = [
    hostManager,
    maintenanceLoop({
      gateway,
      log,
      adapter: () => hostManager,
      ...(opts.drainPeriodMs !== undefined ? { periodMs: opts.drainPeriodMs } : {}),
    }),
    ...(scheduling?.loops() ?? []),
    createEntitlementSampler({
      gateway,
      changes,
      log,
      ...(opts.samplePeriodMs !== undefined ? { periodMs: opts.samplePeriodMs } : {}),
    }),
    taskUsageCompaction({ gateway, log }),
    ...(opts.extraLoops?.(hostManager) ?? []),
  ];
  return { hostManager, scheduling, loops };
}
