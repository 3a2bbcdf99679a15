/**
 * Fencing the leader's writes by its lease epoch.
 *
 * Why in the database: a leader that lost its lease learns it only when its
 * own check fails, and a write already on its way (a batch of status
 * updates, a launch record) would land after a new leader started. So the
 * database itself refuses it. The leader's client opens its connections with
 * `peloton.lease` and `peloton.lease_epoch` set; the statement trigger
 * `peloton_lease_fence` (migration `lease_fencing`) compares them with the
 * lease row before every INSERT, UPDATE or DELETE statement and raises
 * SQLSTATE PLF01 when the epoch moved on.
 *
 * Cost: nothing per transaction on the client side (no extra round trip);
 * on the server one primary-key lookup with a row lock per write statement,
 * and the task writer writes thousands of changes in a handful of statements.
 *
 * Safety: the fence's FOR KEY SHARE lock lasts to the end of the
 * transaction and the epoch bump is a key update, so the bump waits for
 * fenced transactions in flight and every later statement sees the new
 * epoch. Writes of the API for users open no fence (they are not the
 * leader's) and pass untouched.
 */

export interface LeaseFence {
  /** The lease's name (scheduler_leases.name). */
  lease: string;
  /** The epoch this writer was elected in. */
  epoch: bigint;
}

/** Marks the leader's connections: the fence reads these settings, operators see the name. */
export function fencedConnection(fence: LeaseFence): {
  options: string;
  application_name: string;
} {
  if (!/^[\w.:-]+$/.test(fence.lease)) throw new Error(`unsafe lease name ${fence.lease}`);
  return {
    options: `-c peloton.lease=${fence.lease} -c peloton.lease_epoch=${fence.epoch}`,
    application_name: leaderApplicationName(fence.lease, fence.epoch),
  };
}

/** `application_name` of a leader's write connections; a new leader ends the old epoch's. */
export function leaderApplicationName(lease: string, epoch: bigint): string {
  return `peloton leader ${lease} epoch ${epoch}`;
}

/** LIKE pattern matching the write connections of any epoch of `lease`. */
export function leaderApplicationPattern(lease: string): string {
  return `peloton leader ${lease.replace(/[\\%_]/g, "\\$&")} epoch %`;
}
