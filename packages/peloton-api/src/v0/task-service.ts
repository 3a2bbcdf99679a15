/**
 * peloton.api.v0.task.svc.TaskService, Peloton's newer spelling of
 * TaskManager, over the same task operations (tasks.ts).
 */
import type { DescMethod } from "@bufbuild/protobuf";
import { type Implementation, serve } from "../calls/registry.ts";
import { TaskService } from "../generated/peloton/api/v0/task/svc/task_svc_pb.ts";
import { actOnTasks, getTask, listTasks, podEvents, queryTasks } from "./tasks.ts";

const handlers: Implementation<typeof TaskService> = {
  getTask: (req, { caller }) => getTask(caller, req.jobId, req.instanceId),

  async listTasks(req, { caller }) {
    return { tasks: await listTasks(caller, req.jobId, req.range) };
  },

  async startTasks(req, { caller }) {
    return { started: await actOnTasks(caller, "start", req.jobId, req.ranges) };
  },

  async stopTasks(req, { caller }) {
    return { stopped: await actOnTasks(caller, "stop", req.jobId, req.ranges) };
  },

  /** Every instance acted on was stopped to start again: `stopped` lists them. */
  async restartTasks(req, { caller }) {
    return { stopped: await actOnTasks(caller, "restart", req.jobId, req.ranges) };
  },

  async getPodEvents(req, { caller }) {
    return { result: await podEvents(caller, req) };
  },

  queryTasks: (req, { caller }) => queryTasks(caller, req),
};

const MISSING: Record<string, string> = {
  BrowseSandbox:
    "TaskService.BrowseSandbox: sandboxes are not browsed through this API; read a run's stdout and stderr with `peloton task logs`",
  RefreshTasks: "TaskService.RefreshTasks: this scheduler keeps no task cache to reload",
  GetTaskCache: "TaskService.GetTaskCache: this scheduler keeps no task cache; use GetTask",
};

export const taskServiceV0 = serve(
  TaskService,
  handlers,
  (m: DescMethod) => MISSING[m.name] ?? `TaskService.${m.name} is not served yet`,
);
