/**
 * peloton.api.v1alpha.volume.svc.VolumeService over the volumes router:
 * a stateful instance's persistent volume, by job or by id. Volumes are
 * read-only through the API: the host manager destroys those of deleted
 * instances, so DeleteVolume is not served.
 */
import type { DescMethod, MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { VOLUME_STATES } from "@peloton/engine";
import type { Caller } from "../calls/deps.ts";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument } from "../calls/status.ts";
import { VolumeService } from "../generated/peloton/api/v1alpha/volume/svc/volume_svc_pb.ts";
import {
  type PersistentVolumeInfoSchema,
  VolumeState,
} from "../generated/peloton/api/v1alpha/volume/volume_pb.ts";
import { timeText } from "../v0/config.ts";
import { jobRefField } from "./job-refs.ts";
import { podName } from "./pods.ts";
import { naming } from "./spec-fields.ts";

type VolumeListed = Awaited<ReturnType<Caller["volumes"]["list"]>>["items"][number];
type VolumeFilter = Omit<Parameters<Caller["volumes"]["list"]>[0], "limit" | "cursor">;

/** Volumes per read of the router's list (its maximum). */
const PAGE = 500;

function volumeInfo(v: VolumeListed): MessageInitShape<typeof PersistentVolumeInfoSchema> {
  return {
    volumeId: { value: v.id },
    podName: { value: podName(v.jobId, v.instanceId) },
    hostname: v.hostname,
    state: VolumeState[v.state],
    sizeMb: v.sizeMb,
    containerPath: v.containerPath,
    createTime: timeText(v.createdAt),
    updateTime: timeText(v.updatedAt),
  };
}

async function allVolumes(caller: Caller, filter: VolumeFilter): Promise<VolumeListed[]> {
  const volumes: VolumeListed[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<Caller["volumes"]["list"]>> = await caller.volumes.list({
      ...filter,
      limit: PAGE,
      cursor,
    });
    volumes.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return volumes;
}

const handlers: Implementation<typeof VolumeService> = {
  /** The job's volumes, deleted ones aside (as `/volumes` lists them), by volume id. */
  async listVolumes(req, { caller }) {
    const jobId = req.jobId?.value ?? "";
    if (!jobId) throw invalidArgument("jobId.value", "name the job whose volumes to list");
    // Read through jobs.get first, so an unknown job is NOT_FOUND rather than no volumes.
    await naming(jobRefField, caller.jobs.get({ id: jobId }));
    const volumes = await allVolumes(caller, { jobId });
    return { volumes: Object.fromEntries(volumes.map((v) => [v.id, volumeInfo(v)])) };
  },

  /** One volume by id, in any state (a deleted one too). */
  async getVolume(req, { caller }) {
    const id = req.volumeId?.value ?? "";
    if (!id) throw invalidArgument("volumeId.value", "name the volume");
    const found = (await allVolumes(caller, { text: id, states: [...VOLUME_STATES] })).find(
      (v) => v.id === id,
    );
    if (!found) throw new ConnectError(`volumeId.value: no volume ${id}`, Code.NotFound);
    return { result: volumeInfo(found) };
  },
};

const MISSING: Record<string, string> = {
  DeleteVolume:
    "VolumeService.DeleteVolume: volumes are not deleted through the API; the host manager destroys an instance's volume once the instance is deleted (delete the job or scale it down)",
};

export const volumeService = serve(
  VolumeService,
  handlers,
  (m: DescMethod) => MISSING[m.name] ?? `VolumeService.${m.name} is not served yet`,
);
