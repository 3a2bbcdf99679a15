/**
 * Sending kills to the cluster, after the KILLING (or PREEMPTING) state is
 * committed: each with its task's grace period (`killGracePeriodSeconds`).
 * The outcome comes back as a status update; a kill that got lost is sent
 * again by the goal-state loop when the run stays in KILLING too long.
 * Preemption reuses this path with its own state and reason.
 */
import { taskConfigFor } from "@peloton/engine";
import type { Logger } from "../common/logger.ts";
import type { HostAdapter } from "../hostmgr/host-adapter.ts";
import type { JobConfigs } from "../taskwriter/job-configs.ts";
import type { KillOrder } from "../taskwriter/kill-order.ts";

export class Killer {
  constructor(
    private readonly adapter: Pick<HostAdapter, "kill">,
    private readonly configs: JobConfigs,
    private readonly log: Logger,
  ) {}

  /** Sends the kills (without waiting for their outcome). */
  async send(orders: readonly KillOrder[]): Promise<void> {
    if (orders.length === 0) return;
    const configs = await this.configs.get(orders.map((o) => o.jobId));
    await Promise.all(
      orders.map((o) => {
        const config = configs.get(o.jobId);
        const grace = config
          ? taskConfigFor(config, o.instanceId).killGracePeriodSeconds
          : undefined;
        return this.raw({ clusterTaskId: o.clusterTaskId, agentId: o.agentId }, grace);
      }),
    );
  }

  /**
   * Kills a run the database no longer wants (an orphan), with the cluster's
   * default grace. One line each at debug: the status handler counts them
   * in its summary (after a restart they can come by the thousand).
   */
  orphan(order: { clusterTaskId: string; agentId: string | null }): void {
    this.log.debug({ taskId: order.clusterTaskId }, "killing a run the scheduler does not know");
    void this.raw(order, undefined);
  }

  private async raw(
    order: { clusterTaskId: string; agentId: string | null },
    gracePeriodSeconds: number | undefined,
  ): Promise<void> {
    try {
      await this.adapter.kill(order.clusterTaskId, {
        ...(order.agentId ? { hostId: order.agentId } : {}),
        ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}),
      });
    } catch (err) {
      this.log.warn({ err: String(err), taskId: order.clusterTaskId }, "kill not sent; will retry");
    }
  }
}
