/** Peloton's ids and instance ranges as our router's inputs. */

import { invalidArgument } from "../calls/status.ts";
import type { JobID } from "../generated/peloton/api/v0/peloton_pb.ts";
import type { InstanceRange } from "../generated/peloton/api/v0/task/task_pb.ts";

/** The job id's value; the router checks it is a UUID and names the field `id`. */
export function jobId(id: JobID | undefined): string {
  return id?.value ?? "";
}

/**
 * Peloton's ranges are [from, to): `to` is the first instance left out. Ours
 * name both ends. No ranges means every instance (undefined).
 */
export function instanceRanges(
  ranges: readonly InstanceRange[],
): { from: number; to: number }[] | undefined {
  if (ranges.length === 0) return undefined;
  return ranges.map((r, i) => {
    if (r.to <= r.from)
      throw invalidArgument(
        `ranges[${i}]`,
        `an instance range runs from 'from' up to, not including, 'to' (got ${r.from} to ${r.to})`,
      );
    return { from: r.from, to: r.to - 1 };
  });
}
