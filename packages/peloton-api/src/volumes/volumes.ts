/**
 * Persistent volumes as both of Peloton's API versions see them, over the
 * volumes router: v0's and v1alpha's VolumeService list a job's volumes and
 * read one by id, differing only in their messages' field names, and the
 * two protos number volume states alike (INITIALIZED = 1, CREATED = 2,
 * DELETED = 3), so the calls and the mapping live here once. A volume's id
 * is its Mesos persistence id (`<job id>-<instance>`). Volumes are read-only
 * through the API: the host manager destroys a deleted instance's volume.
 */
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import { VOLUME_STATES } from "@peloton/engine";
import type { Caller } from "../calls/deps.ts";
import { collect } from "../calls/pages.ts";
import { readJob } from "../calls/read-job.ts";
import { invalidArgument, notFound } from "../calls/status.ts";
import { timeText } from "../v0/config.ts";
import { naming } from "../v1alpha/spec-fields.ts";

type VolumeListed = inferRouterOutputs<AppRouter>["volumes"]["list"]["items"][number];
type VolumeQuery = Omit<Parameters<Caller["volumes"]["list"]>[0], "limit" | "cursor">;

/** Volumes per page of the router's list (its maximum). */
const PAGE = 500;

const STATE_NUMBERS: Record<VolumeListed["state"], number> = {
  INITIALIZED: 1,
  CREATED: 2,
  DELETED: 3,
};

/** A volume in neither version's message yet (Peloton's goal state is not kept here). */
export interface VolumeFacts {
  id: string;
  jobId: string;
  instanceId: number;
  hostname: string;
  state: number;
  sizeMb: number;
  containerPath: string;
  createTime: string;
  updateTime: string;
}

function facts(v: VolumeListed): VolumeFacts {
  return {
    id: v.id,
    jobId: v.jobId,
    instanceId: v.instanceId,
    hostname: v.hostname,
    state: STATE_NUMBERS[v.state] ?? 0,
    sizeMb: v.sizeMb,
    containerPath: v.containerPath,
    createTime: timeText(v.createdAt),
    updateTime: timeText(v.updatedAt),
  };
}

/** Every volume `query` selects, in any state (Peloton lists deleted ones too). */
async function allVolumes(caller: Caller, query: VolumeQuery): Promise<VolumeListed[]> {
  return collect((cursor) =>
    caller.volumes.list({ states: [...VOLUME_STATES], ...query, limit: PAGE, cursor }),
  );
}

/** The job's volumes in every state; an unknown job is NOT_FOUND, refusals naming `jobField`. */
export async function jobVolumes(
  caller: Caller,
  jobId: string,
  jobField: string,
): Promise<VolumeFacts[]> {
  // Read through jobs.get first, so an unknown job is NOT_FOUND rather than no volumes.
  await naming(() => jobField, readJob(caller, jobId));
  return (await allVolumes(caller, { jobId })).map(facts);
}

/** One volume by its id, in any state; refusals name `field`. */
export async function volumeById(caller: Caller, id: string, field: string): Promise<VolumeFacts> {
  if (!id) throw invalidArgument(field, "name the volume (its id, as ListVolumes gives it)");
  // The router's search matches part of an id: the one whose id is exactly it.
  const found = (await allVolumes(caller, { text: id })).find((v) => v.id === id);
  if (!found) throw notFound(field, `volume ${id} does not exist`);
  return facts(found);
}

/** What a VolumeService method the table does not serve answers, in either version. */
export function missingVolumeMethod(method: string): string {
  return method === "DeleteVolume"
    ? "VolumeService.DeleteVolume: volumes are not deleted through the API; the host manager destroys an instance's volume once the instance is deleted (delete the job or scale it down)"
    : `VolumeService.${method} is not served yet`;
}
