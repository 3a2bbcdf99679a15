/**
 * A host's states (ours; Peloton's host manager has UP, DRAINING, DRAINED and
 * DOWN for maintenance). UP takes tasks; DRAINING takes none and waits for its
 * tasks to leave; DRAINED has none left; DOWN is gone from the cluster.
 */
export const HOST_STATES = ["UP", "DRAINING", "DRAINED", "DOWN"] as const;
export type HostState = (typeof HOST_STATES)[number];

/** Hosts whose resources count in the cluster's capacity: they still run tasks. */
export const CAPACITY_HOST_STATES = ["UP", "DRAINING"] as const satisfies readonly HostState[];
