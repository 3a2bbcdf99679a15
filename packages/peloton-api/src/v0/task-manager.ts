/** peloton.api.v0.task.TaskManager over the shared task operations (tasks.ts). */
import type { DescMethod } from "@bufbuild/protobuf";
import { type Implementation, serve } from "../calls/registry.ts";
import { TaskManager } from "../generated/peloton/api/v0/task/task_pb.ts";
import { actOnTasks, getTask, listTasks, podEvents, queryTasks } from "./tasks.ts";

const handlers: Implementation<typeof TaskManager> = {
  get: (req, { caller }) => getTask(caller, req.jobId, req.instanceId),

  async list(req, { caller }) {
    return { result: { value: await listTasks(caller, req.jobId, req.range) } };
  },

  async start(req, { caller }) {
    return { startedInstanceIds: await actOnTasks(caller, "start", req.jobId, req.ranges) };
  },

  async stop(req, { caller }) {
    return { stoppedInstanceIds: await actOnTasks(caller, "stop", req.jobId, req.ranges) };
  },

  async restart(req, { caller }) {
    await actOnTasks(caller, "restart", req.jobId, req.ranges);
    return {};
  },

  async getPodEvents(req, { caller }) {
    return { result: await podEvents(caller, req) };
  },

  query: (req, { caller }) => queryTasks(caller, req),
};

const MISSING: Record<string, string> = {
  BrowseSandbox:
    "TaskManager.BrowseSandbox: sandboxes are not browsed through this API; read a run's stdout and stderr with `peloton task logs`",
  Refresh: "TaskManager.Refresh: this scheduler keeps no task cache to reload",
  GetCache: "TaskManager.GetCache: this scheduler keeps no task cache; use Get",
  DeletePodEvents: "TaskManager.DeletePodEvents: this scheduler keeps every run's events",
};

export const taskManager = serve(
  TaskManager,
  handlers,
  (m: DescMethod) => MISSING[m.name] ?? `TaskManager.${m.name} is not served yet`,
);
