/**
 * peloton.api.v1alpha.pod.svc.PodService over the tasks router: a pod is a
 * job's instance (`<job id>-<instance>`), read as `peloton task get` reads
 * it and started, stopped or restarted as `peloton task start|stop|restart`
 * does for one instance.
 */
import type { DescMethod, MessageInitShape } from "@bufbuild/protobuf";
import { type Implementation, serve } from "../calls/registry.ts";
import { invalidArgument, unimplemented } from "../calls/status.ts";
import { TaskConfigSchema } from "../generated/peloton/api/v0/task/task_pb.ts";
import type { PodInfoSchema } from "../generated/peloton/api/v1alpha/pod/pod_pb.ts";
import { PodService } from "../generated/peloton/api/v1alpha/pod/svc/pod_svc_pb.ts";
import { pelotonMessage, timeText } from "../v0/config.ts";
import { podSpecOf } from "./pod-spec.ts";
import { parsePodId, parsePodName, podId, podName, podState, podStatus } from "./pods.ts";
import { naming } from "./spec-fields.ts";

/** Events per GetPodEvents answer (the router's largest page). */
const EVENTS = 1000;

const POD_NAME_FIELD = "podName.value";

/** The router names a pod's job and instance apart; the request has them in its name. */
function podField(field: string): string {
  if (field === "jobId" || field === "instance" || field.startsWith("instances"))
    return POD_NAME_FIELD;
  if (field === "run") return "podId.value";
  return field;
}

/** The pod's instance as the router's task actions take it. */
function onePod(name: string | undefined) {
  const { jobId, instance } = parsePodName(name, POD_NAME_FIELD);
  return { jobId, instances: [{ from: instance, to: instance }] };
}

const handlers: Implementation<typeof PodService> = {
  /** The current run with its spec, and earlier runs (newest first, at most `limit`; 0: all). */
  async getPod(req, { caller }) {
    const { jobId, instance } = parsePodName(req.podName?.value, POD_NAME_FIELD);
    const task = await naming(podField, caller.tasks.get({ jobId, instance }));
    const name = podName(jobId, instance);
    const current: MessageInitShape<typeof PodInfoSchema> = {
      status: podStatus(task),
      ...(req.statusOnly
        ? {}
        : { spec: podSpecOf(pelotonMessage(TaskConfigSchema, task.config), name) }),
    };
    const earlier = task.runs
      .filter((r) => r.runId !== task.runId)
      .sort((a, b) => b.runId - a.runId)
      .slice(0, req.limit || undefined);
    return {
      current,
      previous: earlier.map((r) => ({
        status: {
          state: podState(r.state),
          podId: { value: podId(jobId, instance, r.runId) },
          startTime: timeText(r.startedAt),
          completionTime: timeText(r.finishedAt),
          host: r.hostname ?? "",
          message: r.message ?? "",
          reason: r.reason ?? "",
        },
      })),
    };
  },

  /** The pod's events, oldest first, every run's or the run `podId` names. */
  async getPodEvents(req, { caller }) {
    const { jobId, instance } = parsePodName(req.podName?.value, POD_NAME_FIELD);
    let run: number | undefined;
    if (req.podId?.value) {
      const id = parsePodId(req.podId.value, "podId.value");
      if (id.jobId !== jobId || id.instance !== instance)
        throw invalidArgument(
          "podId.value",
          `${req.podId.value} is a run of another pod than ${podName(jobId, instance)}`,
        );
      run = id.run;
    }
    const page = await naming(
      podField,
      caller.tasks.events({
        jobId,
        instance,
        ...(run !== undefined ? { run } : {}),
        limit: EVENTS,
      }),
    );
    return {
      events: page.items.map((e) => ({
        podId: { value: podId(jobId, instance, e.runId) },
        actualState: `POD_STATE_${e.state}`,
        timestamp: e.at.toISOString(),
        hostname: e.hostname ?? "",
        message: e.message ?? "",
        reason: e.reason ?? "",
        ...(e.runId > 1 ? { prevPodId: { value: podId(jobId, instance, e.runId - 1) } } : {}),
      })),
    };
  },

  async startPod(req, { caller }) {
    await naming(podField, caller.tasks.start(onePod(req.podName?.value)));
    return {};
  },

  async stopPod(req, { caller }) {
    await naming(podField, caller.tasks.stop(onePod(req.podName?.value)));
    return {};
  },

  async restartPod(req, { caller }) {
    if (req.checkSla)
      throw unimplemented(
        "checkSla: an SLA-aware restart of one pod is not supported; restart it without checkSla",
      );
    await naming(podField, caller.tasks.restart(onePod(req.podName?.value)));
    return {};
  },
};

const MISSING: Record<string, string> = {
  BrowsePodSandbox:
    "PodService.BrowsePodSandbox: sandboxes are not browsed through this API; read a run's stdout and stderr with `peloton task logs`",
  RefreshPod: "PodService.RefreshPod: this scheduler keeps no pod cache to reload",
  GetPodCache: "PodService.GetPodCache: this scheduler keeps no pod cache; use GetPod",
  DeletePodEvents: "PodService.DeletePodEvents: this scheduler keeps every run's events",
};

export const podService = serve(
  PodService,
  handlers,
  (m: DescMethod) => MISSING[m.name] ?? `PodService.${m.name} is not served yet`,
);
