/**
 * The cluster kinds this scheduler can run on, and what a replica that does
 * not hold the live connection (the API's process, a standby) needs of each:
 * a log reader working from storage alone (the run's host, the host's agent
 * address, the stored subscription), and the stored subscription itself
 * (which cluster the leader connected to, and when). The one place above hostmgr/<kind>/ that
 * names a kind; a new adapter adds its entry here.
 */
import type { ReadOnlyGateway } from "@peloton/storage";
import { DEFAULT_FRAMEWORK_NAME } from "./mesos/framework.ts";
import { readTaskLog } from "./mesos/sandbox-logs.ts";
import type { TaskLogReader } from "./task-logs.ts";

export const CLUSTER_KINDS = ["mesos"] as const;
export type ClusterKind = (typeof CLUSTER_KINDS)[number];

/** The cluster kind a deployment runs on unless its composition root says otherwise. */
export const DEFAULT_CLUSTER_KIND: ClusterKind = "mesos";

/** The leader's connection to the cluster as stored: the cluster's id of us, where, since when. */
export interface ClusterConnection {
  /** The cluster's id of this scheduler (a Mesos framework id). */
  id: string;
  /** The cluster endpoint it connected to (the leading Mesos master). */
  url: string;
  /** When it was written: at every (re)connection. */
  at: Date;
}

interface ClusterKindReads {
  logs(gateway: ReadOnlyGateway): TaskLogReader;
  connection(gateway: ReadOnlyGateway): Promise<ClusterConnection | null>;
}

const KINDS: Record<ClusterKind, ClusterKindReads> = {
  mesos: {
    logs: (gateway) => ({ taskLog: (req) => readTaskLog(gateway, req) }),
    async connection(gateway) {
      const f = await gateway.cluster.framework(DEFAULT_FRAMEWORK_NAME);
      return f === null ? null : { id: f.frameworkId, url: f.masterUrl, at: f.updatedAt };
    },
  },
};

/** Reads runs' logs from any replica, for the cluster kind the system runs on. */
export function clusterLogs(
  gateway: ReadOnlyGateway,
  kind: ClusterKind = DEFAULT_CLUSTER_KIND,
): TaskLogReader {
  return KINDS[kind].logs(gateway);
}

/** The stored connection of the leader to the cluster, or null before the first one. */
export function clusterConnection(
  gateway: ReadOnlyGateway,
  kind: ClusterKind = DEFAULT_CLUSTER_KIND,
): Promise<ClusterConnection | null> {
  return KINDS[kind].connection(gateway);
}
