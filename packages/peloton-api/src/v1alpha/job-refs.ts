/** How a v1alpha job request names a job and its version, for the router and back. */
import type { Caller } from "../calls/deps.ts";
import { readJob } from "../calls/read-job.ts";
import { entityVersion } from "./job-spec.ts";

/** How the router's fields read in a request that names a job (and its version). */
export function jobRefField(field: string): string {
  if (field === "id" || field === "jobId") return "jobId.value";
  if (field === "version") return "version.value";
  return field;
}

/** The job id a request names; the router checks it and names `jobId.value`. */
export function jobIdOf(id: { value: string } | undefined): string {
  return id?.value ?? "";
}

/** The job's entity version now, for an answer. */
export async function currentVersion(caller: Caller, id: string): Promise<{ value: string }> {
  return entityVersion(await readJob(caller, id));
}
