/**
 * Status updates about runs the database has already ended, or does not
 * know (an older run of the instance, a run of a deleted job): after a
 * scheduler restart they come by the thousand, because Mesos delivers
 * updates at least once and sends every unacknowledged one again, and
 * reconciliation restates every task it still remembers (issue 13).
 *
 *   the update says the run ended ─────────────▶ ACK, quietly (nothing runs)
 *   it says the run is up, as a reconciliation ─▶ KILL: the master's latest
 *     answer (the master's latest state)             state says it runs and
 *                                                    nobody wants it (an orphan)
 *   it says the run is being killed ───────────▶ ACK (its end will follow)
 *   it says the run is up, as an ordinary ─────▶ RECHECK: it may be an old
 *     update                                         update sent again for a
 *                                                    run that has finished since;
 *                                                    ask the master for its latest
 *                                                    state, whose answer decides
 *
 * So a run that already finished is never killed, and one that really runs
 * unknown to us is killed on the master's word. Each is counted, and the
 * counts are logged in one line now and then (`UpdateSummary`), not a line
 * per run.
 */
import { isTerminalTaskState } from "@peloton/engine";
import type { Logger } from "../common/logger.ts";
import type { TaskStatusUpdate } from "../hostmgr/host-adapter.ts";

export type EndedRunVerdict = "ACK" | "KILL" | "RECHECK";

export function verdictForEndedRun(u: TaskStatusUpdate): EndedRunVerdict {
  if (isTerminalTaskState(u.state)) return "ACK";
  if (u.reconciliation) return "KILL";
  if (u.state === "KILLING") return "ACK";
  return "RECHECK";
}

export type SummaryCount =
  /** An end reported for a run the database had ended already. */
  | "alreadyEnded"
  /** An end reported for a run the database does not know. */
  | "unknownEnded"
  /** An update for an earlier stage than the run's recorded one (sent again). */
  | "earlierStage"
  /** A loss for invalid offers of a run its agent reported: a launch the master took twice. */
  | "repeatedLaunch"
  /** An up-report for an ended or unknown run: the master was asked for its latest state. */
  | "rechecked"
  /** Runs the master says still run, which the database does not want. */
  | "orphansKilled";

/**
 * Counts what the status handler acknowledged without a change, and says
 * so at info level at most once per period (the first count starts it).
 */
export class UpdateSummary {
  private counts = new Map<SummaryCount, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Logger,
    private readonly periodMs = 5_000,
  ) {}

  note(what: SummaryCount, n = 1): void {
    if (n <= 0) return;
    this.counts.set(what, (this.counts.get(what) ?? 0) + n);
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.flush(), this.periodMs);
    this.timer.unref();
  }

  /** Logs the counts so far (if any) and starts over. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.counts.size === 0) return;
    const counts = Object.fromEntries(this.counts);
    this.counts = new Map();
    this.log.info(counts, "status updates about ended or unknown runs");
  }
}
