/**
 * What the host manager launches for a placed task (pure): the instance's
 * merged config as a `TaskLaunch` — command with Peloton's environment
 * (PELOTON_JOB_ID, PELOTON_INSTANCE_ID, PELOTON_TASK_ID and the ports'
 * env names), resources, the ports placement chose, labels, image, grace
 * period, health check (Mesos' form), and a stateful instance's volume (created on its first launch).
 */
import { healthCheckSpecOf, type JobConfig, taskConfigFor, taskEnvironment } from "@peloton/engine";
import type { TaskLaunch } from "../hostmgr/host-adapter.ts";
import { assignPorts, taskLabelsOf } from "./placement-input.ts";

/** The id the cluster knows a run by: `<job id>-<instance>-<run>` (Peloton's task id). */
export function clusterTaskIdOf(jobId: string, instance: number, run: number): string {
  return `${jobId}-${instance}-${run}`;
}

export interface LaunchSubject {
  jobId: string;
  jobName: string;
  instanceId: number;
  runId: number;
  resources: { cpu: number; gpu: number; memory: number; disk: number };
  /** The volume to mount, when the instance has one; `create` on its first launch. */
  volume: { id: string; create: boolean } | null;
}

export function taskLaunchOf(
  subject: LaunchSubject,
  config: JobConfig,
  picked: { readonly static: readonly number[]; readonly dynamic: readonly number[] },
): TaskLaunch {
  const task = taskConfigFor(config, subject.instanceId);
  const taskId = clusterTaskIdOf(subject.jobId, subject.instanceId, subject.runId);
  const ports = assignPorts(task, picked);
  const own = Object.fromEntries(
    (task.command?.environment?.variables ?? []).map((v) => [v.name, v.value]),
  );
  const labels = Object.fromEntries(taskLabelsOf(config, task).map((l) => [l.key, l.value]));
  const environment = {
    ...own,
    ...taskEnvironment(subject.jobId, subject.instanceId, taskId, ports),
  };
  const healthCheck = healthCheckSpecOf(task, environment);
  const image = task.container?.docker?.image ?? task.container?.mesos?.image?.docker?.name;
  return {
    taskId,
    name: `${task.name ?? subject.jobName}-${subject.instanceId}`,
    resources: {
      cpu: subject.resources.cpu,
      memMb: subject.resources.memory,
      diskMb: subject.resources.disk,
      gpu: subject.resources.gpu,
    },
    ports: Object.fromEntries(ports.map((p) => [p.name, p.number])),
    command: {
      value: task.command?.value ?? "",
      shell: task.command?.shell ?? true,
      ...(task.command?.arguments ? { arguments: task.command.arguments } : {}),
      // Peloton's variables after the job's own: they win on a clash.
      environment,
    },
    ...(image ? { image } : {}),
    ...(Object.keys(labels).length > 0 ? { labels } : {}),
    ...(task.killGracePeriodSeconds !== undefined
      ? { killGracePeriodSeconds: task.killGracePeriodSeconds }
      : {}),
    ...(healthCheck ? { healthCheck } : {}),
    ...(subject.volume && task.volume
      ? {
          volume: {
            id: subject.volume.id,
            containerPath: task.volume.containerPath,
            sizeMb: task.volume.sizeMB,
            create: subject.volume.create,
          },
        }
      : {}),
  };
}
