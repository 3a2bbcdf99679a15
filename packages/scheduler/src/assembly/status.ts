/**
 * The scheduler as any replica sees it through storage: who holds the
 * scheduling lease and whether it is live, and whether the live leader
 * connected to the cluster in its current term. The lease's name and its
 * renewal timing live here, beside the election that writes them, so the
 * API asks rather than copies them.
 */
import type { LeaseRecord, ReadOnlyGateway } from "@peloton/storage";
import {
  type ClusterConnection,
  type ClusterKind,
  clusterConnection,
  DEFAULT_CLUSTER_KIND,
} from "../hostmgr/clusters.ts";

/** The row the leader election claims and renews (leader.ts). */
export const SCHEDULER_LEASE = "scheduler";

/** A lease renewed within this long has a live holder (the leader renews every 400 ms). */
export const LEASE_LIVE_MS = 3_000;

export interface SchedulerStatus {
  /** The lease row, live or not; null before any replica led. */
  lease: LeaseRecord | null;
  /** A replica leads now: the lease was renewed within LEASE_LIVE_MS. */
  running: boolean;
  /** The leader's stored connection to the cluster (possibly an earlier term's). */
  cluster: ClusterConnection | null;
  /** The live leader connected to the cluster during its current term. */
  connected: boolean;
}

export async function schedulerStatus(
  gateway: ReadOnlyGateway,
  opts: { now?: () => number; cluster?: ClusterKind } = {},
): Promise<SchedulerStatus> {
  const now = opts.now ?? Date.now;
  const [lease, cluster] = await Promise.all([
    gateway.cluster.lease(SCHEDULER_LEASE),
    clusterConnection(gateway, opts.cluster ?? DEFAULT_CLUSTER_KIND),
  ]);
  const running = lease !== null && now() - lease.renewedAt.getTime() < LEASE_LIVE_MS;
  return {
    lease,
    running,
    cluster,
    // The connection is written on every (re)connection: after the term began means this leader's.
    connected: running && cluster !== null && cluster.at.getTime() >= lease.acquiredAt.getTime(),
  };
}
