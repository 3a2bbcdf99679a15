/**
 * A simulated agent: its identity, attributes and resource accounting. What
 * the agent runs lives in the master's task records; this is the ledger:
 *   available = total − used (tasks and executors) − offered
 * RESERVE / CREATE change `total` in place (unreserved → reserved → volume).
 */
import type http from "node:http";
import type { Attribute, URL } from "../proto/messages.ts";
import { ResourceBag } from "../resources/bag.ts";
import type { AgentSpec } from "./cluster.ts";

export class SimAgent {
  readonly used = new ResourceBag();
  readonly offered = new ResourceBag();
  /** ms since the epoch: `registered_time` in the operator API. */
  readonly registeredAt = Date.now();
  /** The spec it was started from (checkpointed). */
  spec: AgentSpec | undefined;
  /** Added after the sim started (`/sim/agents`): a recovering sim re-adds it. */
  dynamic = false;

  constructor(
    readonly id: string,
    readonly hostname: string,
    public total: ResourceBag,
    readonly attributes: readonly Attribute[],
    /** The agent's own HTTP endpoint (state, files), as offers carry it. */
    readonly url: URL,
    /** Every task on this agent is simulated (see simulated-run.ts). */
    readonly simulateTasks: boolean,
    /** Serves `url`; closed when the agent fails or the sim stops. */
    private readonly server: http.Server,
  ) {}

  /** The agent process is gone: its endpoint stops answering. */
  shutDown(): void {
    this.server.closeAllConnections();
    this.server.close();
  }

  available(): ResourceBag {
    return this.total.clone().subtract(this.used).subtract(this.offered);
  }

  hasGpus(): boolean {
    return this.total.scalar("gpus") > 0;
  }
}
