/**
 * peloton.api.v0.update.svc.UpdateService over the updates router: create
 * an update of a SERVICE (or STATEFUL, DAEMON) job, read and list them,
 * pause, resume, abort and roll one back. A BATCH job's update is the
 * router's refusal, as Peloton's.
 */
import type { DescMethod } from "@bufbuild/protobuf";
import { collect } from "../calls/pages.ts";
import { type Implementation, serve } from "../calls/registry.ts";
import { type FieldNaming, invalidArgument, unimplemented } from "../calls/status.ts";
import type { OpaqueData } from "../generated/peloton/api/v0/peloton_pb.ts";
import { UpdateService } from "../generated/peloton/api/v0/update/svc/update_svc_pb.ts";
import { jobId } from "./ids.ts";
import { startUpdate, updateCreateFields, updateInfo } from "./updates.ts";

/** Updates per page of the router's list (its maximum). */
const PAGE = 200;

/** Peloton keeps a client's opaque data with the update; this scheduler has nowhere to keep it. */
function noOpaqueData(data: OpaqueData | undefined, field = "opaque_data"): void {
  if (data?.data)
    throw unimplemented(`${field}: this scheduler does not keep a client's data with an update`);
}

function updateId(id: { value: string } | undefined): string {
  return id?.value ?? "";
}

const handlers: Implementation<typeof UpdateService> = {
  async createUpdate(req, { caller }) {
    noOpaqueData(req.opaqueData);
    if (!req.jobConfig) throw invalidArgument("jobConfig", "an update needs the job's new config");
    const { updateId } = await startUpdate(caller, {
      jobId: jobId(req.jobId),
      config: req.jobConfig,
      updateConfig: req.updateConfig,
      override: true,
    });
    return { updateID: { value: updateId } };
  },

  async getUpdate(req, { caller }) {
    const u = await caller.updates.get({ id: updateId(req.updateId) });
    return { updateInfo: updateInfo(u, req.statusOnly) };
  },

  /** The job's updates, newest first; `limit` 0 is every one (Peloton's). */
  async listUpdates(req, { caller }) {
    const limit = req.limit > 0 ? req.limit : Number.POSITIVE_INFINITY;
    const id = jobId(req.jobID);
    const found = await collect(
      (cursor, wanted) => caller.updates.list({ jobId: id, limit: Math.min(PAGE, wanted), cursor }),
      { limit },
    );
    return { updateInfo: found.map((u) => updateInfo(u)) };
  },

  async pauseUpdate(req, { caller }) {
    noOpaqueData(req.opaqueData);
    await caller.updates.pause({ id: updateId(req.updateId) });
    return {};
  },

  async resumeUpdate(req, { caller }) {
    noOpaqueData(req.opaqueData);
    await caller.updates.resume({ id: updateId(req.updateId) });
    return {};
  },

  async rollbackUpdate(req, { caller }) {
    await caller.updates.rollback({ id: updateId(req.updateId) });
    return {};
  },

  async abortUpdate(req, { caller }) {
    noOpaqueData(req.opaqueData);
    if (req.softAbort)
      throw unimplemented(
        "softAbort: an abort here always leaves the job at the new config with its instances where they are (docs/updates.md)",
      );
    await caller.updates.abort({ id: updateId(req.updateId) });
    return {};
  },
};

const MISSING: Record<string, string> = {
  GetUpdateCache:
    "UpdateService.GetUpdateCache: this scheduler keeps no update cache; updates are read from the database (use GetUpdate)",
};

/** The router names the update `id`; Peloton's requests `updateId`. */
const byUpdateId: FieldNaming = (field) => (field === "id" ? "updateId" : field);

export const updateService = serve(
  UpdateService,
  handlers,
  (m: DescMethod) => MISSING[m.name] ?? `UpdateService.${m.name} is not served yet`,
  {
    CreateUpdate: updateCreateFields("jobId", "jobConfig"),
    GetUpdate: byUpdateId,
    ListUpdates: (field) => (field === "jobId" || field === "id" ? "jobID" : field),
    PauseUpdate: byUpdateId,
    ResumeUpdate: byUpdateId,
    RollbackUpdate: byUpdateId,
    AbortUpdate: byUpdateId,
  },
);
