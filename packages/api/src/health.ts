/**
 * Is this replica healthy, and what does it do? The console's Next server
 * is a different process from the launcher's scheduler, so everything here
 * is learnt through PostgreSQL, as the scheduler reads it for any replica
 * (`schedulerStatus`: the lease row and whether it is live, the leader's
 * stored connection to the cluster). The launcher names its scheduler's replica
 * in PELOTON_REPLICA for the Next server it starts.
 *
 * Cheap: one round trip for the ping and two primary-key reads.
 */
import { type RawEnvironment, readEnvironment } from "@peloton/engine/environment";
import { schedulerStatus } from "@peloton/scheduler";
import { isDatabaseUnavailable, type ReadOnlyGateway } from "@peloton/storage";

export interface HealthReport {
  /** The database answered: this replica can serve. */
  ok: boolean;
  database: { reachable: boolean; error: string | null };
  /** This replica's scheduler id ("host:pid"), when the launcher passed it. */
  replica: string | null;
  /** This replica holds the live scheduling lease. */
  leads: boolean;
  /** The scheduler runs somewhere: a live lease holder exists. */
  scheduler: {
    running: boolean;
    leader: string | null;
    epoch: number | null;
    renewedAt: Date | null;
  };
  /** The live leader subscribed to the cluster during its current term. */
  cluster: { subscribed: boolean; frameworkId: string | null; masterUrl: string | null };
}

export function replicaFromEnv(env: RawEnvironment = process.env): string | null {
  return readEnvironment(env, ["PELOTON_REPLICA"]).PELOTON_REPLICA ?? null;
}

export async function readHealth(
  gateway: ReadOnlyGateway,
  replica: string | null,
  now: () => number = Date.now,
  /** Throw an outage instead of reporting it (the tRPC procedure: the edge answers 503 and logs it). */
  outage: "report" | "throw" = "report",
): Promise<HealthReport> {
  try {
    await gateway.ping();
    const { lease, running, cluster, connected } = await schedulerStatus(gateway, { now });
    return {
      ok: true,
      database: { reachable: true, error: null },
      replica,
      leads: running && replica !== null && lease?.holder === replica,
      scheduler: {
        running,
        leader: running ? (lease?.holder ?? null) : null,
        epoch: lease?.epoch ?? null,
        renewedAt: lease?.renewedAt ?? null,
      },
      cluster: {
        subscribed: connected,
        frameworkId: cluster?.id ?? null,
        masterUrl: cluster?.url ?? null,
      },
    };
  } catch (err) {
    if (outage === "throw" || !isDatabaseUnavailable(err)) throw err;
    return {
      ok: false,
      database: {
        reachable: false,
        error: err instanceof Error ? err.message.trim().split("\n").at(-1)! : String(err),
      },
      replica,
      leads: false,
      scheduler: { running: false, leader: null, epoch: null, renewedAt: null },
      cluster: { subscribed: false, frameworkId: null, masterUrl: null },
    };
  }
}
