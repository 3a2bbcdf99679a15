/**
 * peloton.api.v0.volume.svc.VolumeService over the volumes router, through
 * the calls both versions share (src/volumes/volumes.ts): a job's
 * persistent volumes, and one by its id. No API deletes a volume.
 */
import type { DescMethod, MessageInitShape } from "@bufbuild/protobuf";
import { type Implementation, serve } from "../calls/registry.ts";
import { VolumeService } from "../generated/peloton/api/v0/volume/svc/volume_svc_pb.ts";
import type { PersistentVolumeInfoSchema } from "../generated/peloton/api/v0/volume/volume_pb.ts";
import {
  jobVolumes,
  missingVolumeMethod,
  type VolumeFacts,
  volumeById,
} from "../volumes/volumes.ts";
import { jobId } from "./ids.ts";

/** Peloton's goal state is not kept here (README): left UNKNOWN. */
function volumeInfo(v: VolumeFacts): MessageInitShape<typeof PersistentVolumeInfoSchema> {
  return {
    id: { value: v.id },
    jobId: { value: v.jobId },
    instanceId: v.instanceId,
    hostname: v.hostname,
    state: v.state,
    sizeMB: v.sizeMb,
    containerPath: v.containerPath,
    createTime: v.createTime,
    updateTime: v.updateTime,
  };
}

const handlers: Implementation<typeof VolumeService> = {
  async listVolumes(req, { caller }) {
    const volumes = await jobVolumes(caller, jobId(req.jobId), "jobId");
    return { volumes: Object.fromEntries(volumes.map((v) => [v.id, volumeInfo(v)])) };
  },

  async getVolume(req, { caller }) {
    return { result: volumeInfo(await volumeById(caller, req.id?.value ?? "", "id")) };
  },
};

export const volumeService = serve(VolumeService, handlers, (m: DescMethod) =>
  missingVolumeMethod(m.name),
);
