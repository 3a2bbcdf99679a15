/**
 * peloton.api.v1alpha.volume.svc.VolumeService over the volumes router,
 * through the calls both versions share (src/volumes/volumes.ts): a
 * stateful instance's persistent volume, by job or by id, named by its pod.
 * No API deletes a volume.
 */
import type { DescMethod, MessageInitShape } from "@bufbuild/protobuf";
import { type Implementation, serve } from "../calls/registry.ts";
import { VolumeService } from "../generated/peloton/api/v1alpha/volume/svc/volume_svc_pb.ts";
import type { PersistentVolumeInfoSchema } from "../generated/peloton/api/v1alpha/volume/volume_pb.ts";
import {
  jobVolumes,
  missingVolumeMethod,
  type VolumeFacts,
  volumeById,
} from "../volumes/volumes.ts";
import { podName } from "./pods.ts";

function volumeInfo(v: VolumeFacts): MessageInitShape<typeof PersistentVolumeInfoSchema> {
  return {
    volumeId: { value: v.id },
    podName: { value: podName(v.jobId, v.instanceId) },
    hostname: v.hostname,
    state: v.state,
    sizeMb: v.sizeMb,
    containerPath: v.containerPath,
    createTime: v.createTime,
    updateTime: v.updateTime,
  };
}

const handlers: Implementation<typeof VolumeService> = {
  /** The job's volumes, in every state, by volume id. */
  async listVolumes(req, { caller }) {
    const volumes = await jobVolumes(caller, req.jobId?.value ?? "", "jobId.value");
    return { volumes: Object.fromEntries(volumes.map((v) => [v.id, volumeInfo(v)])) };
  },

  /** One volume by id, in any state (a deleted one too). */
  async getVolume(req, { caller }) {
    return {
      result: volumeInfo(await volumeById(caller, req.volumeId?.value ?? "", "volumeId.value")),
    };
  },
};

export const volumeService = serve(VolumeService, handlers, (m: DescMethod) =>
  missingVolumeMethod(m.name),
);
