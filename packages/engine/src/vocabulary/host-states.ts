/**
 * A host's states: Peloton's host manager's UP, DRAINING, DRAINED and DOWN,
 * plus LOST. UP takes tasks. DRAINING, DRAINED and DOWN are host
 * maintenance: DRAINING takes no new task and its tasks are evicted,
 * DRAINED has none left, DOWN is in maintenance on the cluster (Mesos
 * START_MAINTENANCE). LOST is ours: the cluster no longer has the host's
 * agent (lost, unreachable, removed), which is not maintenance and ends by
 * itself when the agent registers again. Peloton reads an agent the master
 * dropped as DOWN; keeping the two apart tells an operator's planned
 * maintenance from a failure.
 */
export const HOST_STATES = ["UP", "DRAINING", "DRAINED", "DOWN", "LOST"] as const;
export type HostState = (typeof HOST_STATES)[number];

/** Hosts whose resources count in the cluster's capacity: they still run tasks. */
export const CAPACITY_HOST_STATES = ["UP", "DRAINING"] as const satisfies readonly HostState[];

/** The states of a host in maintenance (started and not completed). */
export const MAINTENANCE_HOST_STATES = [
  "DRAINING",
  "DRAINED",
  "DOWN",
] as const satisfies readonly HostState[];
