/**
 * peloton.api.v0.volume.svc.VolumeService over the volumes router: a job's
 * persistent volumes, and one by its id. Volumes are destroyed by the host
 * manager when their instance is deleted; no API deletes one.
 */
import type { DescMethod, MessageInitShape } from "@bufbuild/protobuf";
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import { VOLUME_STATES } from "@peloton/engine";
import type { Caller } from "../calls/deps.ts";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument, notFound } from "../calls/status.ts";
import { VolumeService } from "../generated/peloton/api/v0/volume/svc/volume_svc_pb.ts";
import {
  type PersistentVolumeInfoSchema,
  VolumeState,
} from "../generated/peloton/api/v0/volume/volume_pb.ts";
import { timeText } from "./config.ts";
import { jobId } from "./ids.ts";

type VolumeListed = inferRouterOutputs<AppRouter>["volumes"]["list"]["items"][number];
type VolumeQuery = Omit<Parameters<Caller["volumes"]["list"]>[0], "limit" | "cursor">;

/** Volumes per page of the router's list (its maximum). */
const PAGE = 500;

/** Peloton's goal state is not kept here (README): left UNKNOWN. */
function volumeInfo(v: VolumeListed): MessageInitShape<typeof PersistentVolumeInfoSchema> {
  return {
    id: { value: v.id },
    jobId: { value: v.jobId },
    instanceId: v.instanceId,
    hostname: v.hostname,
    state: VolumeState[v.state] ?? VolumeState.UNKNOWN,
    sizeMB: v.sizeMb,
    containerPath: v.containerPath,
    createTime: timeText(v.createdAt),
    updateTime: timeText(v.updatedAt),
  };
}

/** Every volume `query` selects, in any state (Peloton lists deleted ones too). */
async function allVolumes(caller: Caller, query: VolumeQuery): Promise<VolumeListed[]> {
  const volumes: VolumeListed[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<Caller["volumes"]["list"]>> = await caller.volumes.list({
      states: [...VOLUME_STATES],
      ...query,
      limit: PAGE,
      cursor,
    });
    volumes.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return volumes;
}

const handlers: Implementation<typeof VolumeService> = {
  async listVolumes(req, { caller }) {
    const volumes = await allVolumes(caller, { jobId: jobId(req.jobId) });
    return { volumes: Object.fromEntries(volumes.map((v) => [v.id, volumeInfo(v)])) };
  },

  async getVolume(req, { caller }) {
    const id = req.id?.value ?? "";
    if (!id) throw invalidArgument("id", "name the volume (its id, as ListVolumes gives it)");
    // The router's search matches part of an id: the one whose id is exactly it.
    const found = (await allVolumes(caller, { text: id })).find((v) => v.id === id);
    if (!found) throw notFound("id", `volume ${id} does not exist`);
    return { result: volumeInfo(found) };
  },
};

const MISSING: Record<string, string> = {
  DeleteVolume:
    "VolumeService.DeleteVolume: volumes are destroyed by the host manager when their instance is deleted; no API deletes one",
};

export const volumeService = serve(
  VolumeService,
  handlers,
  (m: DescMethod) => MISSING[m.name] ?? `VolumeService.${m.name} is not served yet`,
);
