/**
 * Admitted tasks on their way to a host, kept in the leader's memory as
 * Peloton's resource manager keeps READY and PLACING: their rows stay
 * PENDING until placement writes them LAUNCHING (with the admission's event
 * beside the placement's), so admission costs no write per task. A new
 * leader starts empty and simply admits the PENDING rows again; nothing was
 * launched from here without its LAUNCHING row.
 *
 *   admission round ─▶ admit(tasks): replaces the last round's, not yet taken
 *   placement round ─▶ take(n) ─▶ placing ─▶ done(ids) once written LAUNCHING,
 *                                             left unplaced, or gone
 *
 * Admission leaves alone, and counts as held in their pools, the tasks in
 * placement's hands and those that left them since its round began (their
 * LAUNCHING may have committed after its reads): at worst it is cautious
 * for one round, never admitting a task twice or over a pool's entitlement.
 */
import { addHeld, type PendingTaskRow, type PoolHeld } from "@peloton/storage";

export interface AdmittedTask {
  row: PendingTaskRow;
  admittedAt: Date;
  /** "admitted in pool /a (its pending queue)": the admission event's message. */
  message: string;
}

export class AdmittedTasks {
  /** This round's admissions placement has not taken yet. */
  private waiting: AdmittedTask[] = [];
  /** Taken by placement; their LAUNCHING is not written yet. */
  private readonly placing = new Map<string, AdmittedTask>();
  /** Left placement's hands since admission's round began. */
  private readonly leftSince = new Map<string, AdmittedTask>();

  /** Admission's round begins (before its reads). */
  beginRound(): void {
    this.leftSince.clear();
  }

  /** Whether admission must leave this task alone this round (taken by placement, or just out of its hands). */
  isInHand(taskId: string): boolean {
    return this.placing.has(taskId) || this.leftSince.has(taskId);
  }

  /** Those tasks: what they hold counts in their pools. */
  inHand(): AdmittedTask[] {
    return [...this.placing.values(), ...this.leftSince.values()];
  }

  /**
   * This round's admissions, replacing the last round's that placement did
   * not take: a pool whose entitlement shrank no longer admits them.
   * Placement takes them higher priority first, then by job and instance
   * (a gang's members together).
   */
  admit(tasks: AdmittedTask[]): void {
    this.waiting = tasks.sort(
      (a, b) =>
        b.row.priority - a.row.priority ||
        (a.row.jobId < b.row.jobId ? -1 : a.row.jobId > b.row.jobId ? 1 : 0) ||
        a.row.instanceId - b.row.instanceId,
    );
  }

  /** Up to `n` admitted tasks for placement's round, now in its hands. */
  take(n: number): AdmittedTask[] {
    const taken = this.waiting.splice(0, n);
    for (const t of taken) this.placing.set(t.row.taskId, t);
    return taken;
  }

  /** Placement is done with these: written LAUNCHING, left unplaced (admitted again next round), or gone. */
  done(taskIds: Iterable<string>): void {
    for (const id of taskIds) {
      const t = this.placing.get(id);
      if (!t) continue;
      this.placing.delete(id);
      this.leftSince.set(id, t);
    }
  }

  /** Every task admitted and not yet written LAUNCHING (taken or not): READY as the preemptor counts it. */
  admittedNow(): AdmittedTask[] {
    return [...this.waiting, ...this.placing.values()];
  }

  /** Admitted and not taken yet. */
  get waitingCount(): number {
    return this.waiting.length;
  }
}

/**
 * What the database's `heldByPool` read, with what the tasks in placement's
 * hands hold added (their rows still say PENDING).
 */
export function withHeldInHand(
  held: readonly PoolHeld[],
  inHand: Iterable<AdmittedTask>,
): PoolHeld[] {
  const byPool = new Map(
    held.map((h) => [
      h.poolId,
      {
        poolId: h.poolId,
        nonRevocable: { ...h.nonRevocable },
        slack: { ...h.slack },
        controller: { ...h.controller },
        nonPreemptible: { ...h.nonPreemptible },
      },
    ]),
  );
  for (const { row } of inHand) addHeld(byPool, row.poolId, row, row.resources);
  return [...byPool.values()];
}
