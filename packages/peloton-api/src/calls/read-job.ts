/**
 * A job as the router's `jobs.get` answers it, without why its tasks wait:
 * no Peloton message carries that, and counting it is an aggregate over the
 * job's waiting tasks (most of a big job's read).
 */
import type { Caller } from "./deps.ts";

export function readJob(caller: Caller, id: string): ReturnType<Caller["jobs"]["get"]> {
  return caller.jobs.get({ id, waiting: false });
}
