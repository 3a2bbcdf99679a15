/**
 * Host maintenance on the leader (Peloton's host drainer and its goal-state
 * engine): every host whose state is not yet its goal is moved one step.
 *
 *   goal DOWN:  DRAINING ──tasks evicted, SLA permitting──▶ (empty) DRAINED
 *               DRAINED ──cluster: schedule + START_MAINTENANCE──▶ DOWN
 *   goal UP:    DRAINING / DRAINED / DOWN ──cluster: STOP_MAINTENANCE──▶ UP
 *
 * Evictions ask the job manager, through storage, for a new run of each
 * task (hostmgr sits below jobmgr): it kills the current run with reason
 * HOST_MAINTENANCE and places the next elsewhere, since the host takes no
 * new task. A RUNNING task goes only while its job stays within
 * `sla.maximumUnavailableInstances` (engine `planEvictions`); the rest wait
 * for instances to come back and go on a later tick. Each state change
 * writes its history row in the same transaction; all of it is in
 * PostgreSQL, so a new leader carries on where the last one stopped.
 */
import { planEvictions } from "@peloton/engine";
import type { MaintenanceWork, StorageGateway } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import { PeriodicLoop } from "../common/loop.ts";
import type { HostAdapter } from "./host-adapter.ts";

export interface MaintenanceLoopOptions {
  gateway: StorageGateway;
  /** The term's cluster adapter (undefined while it is being built). */
  adapter: () => HostAdapter | undefined;
  log: Logger;
  periodMs?: number;
}

/** The IP in a recorded agent URL ("http://10.0.0.5:5051/slave(1)"). */
function ipOf(agentUrl: string | null): string | null {
  if (agentUrl === null) return null;
  try {
    const host = new URL(agentUrl).hostname;
    return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) ? host : null;
  } catch {
    return null;
  }
}

export function maintenanceLoop(opts: MaintenanceLoopOptions): PeriodicLoop {
  const { gateway, log } = opts;
  const move = (w: MaintenanceWork, to: MaintenanceWork["state"], reason: string) =>
    gateway.transaction(async (tx) => {
      const moved = await tx.hostMaintenance.transition(
        w.hostname,
        { from: w.state, to, goal: w.goalState },
        reason,
      );
      // A host leaving or rejoining the cluster is news for the overview's
      // activity feed, which reads the audit log: recorded with the move.
      if (moved && (to === "DOWN" || to === "UP"))
        await tx.audit.record({
          actor: "system",
          via: "system",
          action: `host.${to === "DOWN" ? "down" : "up"}`,
          targetType: "host",
          targetId: w.hostname,
          before: { state: w.state },
          after: { state: to, reason },
        });
      return moved;
    });

  async function drain(w: MaintenanceWork): Promise<void> {
    const candidates = await gateway.hostMaintenance.evictionCandidates(w.hostname);
    if (candidates.length === 0) {
      await move(w, "DRAINED", "no tasks left on the host");
      return;
    }
    const plan = planEvictions(candidates);
    if (plan.evict.length === 0) return;
    const jobs = await gateway.transaction((tx) =>
      tx.hostMaintenance.requestEvictions(w.hostname, plan.evict),
    );
    log.info(
      { host: w.hostname, evicted: plan.evict.length, jobs: jobs.length, waits: plan.waits.length },
      "tasks evicted for host maintenance",
    );
  }

  async function step(w: MaintenanceWork): Promise<void> {
    const machine = { hostname: w.hostname, ip: ipOf(w.agentUrl) };
    if (w.goalState === "DOWN") {
      if (w.state === "DRAINING") return drain(w);
      if (w.state === "DRAINED") {
        const adapter = opts.adapter();
        if (adapter === undefined || adapter.state !== "connected") return;
        await adapter.startMaintenance(machine);
        await move(w, "DOWN", "in maintenance on the cluster");
      }
      return;
    }
    if (w.goalState === "UP" && w.state !== "UP" && w.state !== "LOST") {
      const adapter = opts.adapter();
      if (adapter === undefined || adapter.state !== "connected") return;
      await adapter.stopMaintenance(machine);
      await move(w, "UP", "maintenance completed");
    }
  }

  return new PeriodicLoop({
    name: "host-maintenance",
    periodMs: opts.periodMs ?? 2_000,
    log,
    tick: async () => {
      for (const w of await gateway.hostMaintenance.work()) {
        try {
          await step(w);
        } catch (err) {
          // The cluster refused or is away: the next tick tries again.
          log.warn(
            { err, host: w.hostname, state: w.state, goal: w.goalState },
            "maintenance step failed",
          );
        }
      }
    },
  });
}
