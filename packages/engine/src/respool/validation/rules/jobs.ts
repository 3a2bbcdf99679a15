import type { PoolValidationError } from "../errors.ts";

/** What the caller knows about the jobs of the pool a change puts a child under. */
export interface PoolJobsFacts {
  /** Jobs that are not deleted. */
  readonly count: number;
  /** A few of their names, for the words (may be fewer than `count`, or none). */
  readonly names?: readonly string[];
}

/** How many job names a sentence gives before it says "and N more". */
const NAMED_JOBS = 3;

/**
 * Jobs run in leaf pools only (peloton-semantics.md §2), so a pool with jobs
 * may not get a child, by create or by move: its jobs would stay queued in a
 * pool that admits nothing, and a job cannot be moved. Peloton refuses the
 * job side ("ResourcePoolIsNotLeaf" at submit); this refuses the pool side.
 */
export function checkParentHasNoJobs(
  pool: string,
  parent: string,
  jobs: PoolJobsFacts | undefined,
): PoolValidationError[] {
  if (!jobs || jobs.count <= 0) return [];
  const names = (jobs.names ?? []).slice(0, NAMED_JOBS);
  return [{ code: "PARENT_HAS_JOBS", pool, values: { parent, jobs: jobs.count, names } }];
}
