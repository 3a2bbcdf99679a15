/**
 * v1alpha's PodSpec and v0's TaskConfig, each way, as Peloton's own job
 * manager converts them (pkg/jobmgr/util/handler/api_converter.go): one
 * container per pod, whose resources, Mesos command, container and
 * executor, ports and liveness check are the task's. Our jobs are stored
 * in v0's shape, so a v1alpha spec is submitted as the v0 config it means
 * and read back the same way. Enum numbers agree between the two versions
 * (constraint kinds and conditions, health check types).
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { unimplemented } from "../calls/status.ts";
import {
  ConstraintSchema as ConstraintSchemaV0,
  type Constraint as ConstraintV0,
  PreemptionPolicy_Type,
  type TaskConfig,
  TaskConfigSchema,
} from "../generated/peloton/api/v0/task/task_pb.ts";
import {
  type Constraint,
  ConstraintSchema,
  type PodSpec,
  type PodSpecSchema,
} from "../generated/peloton/api/v1alpha/pod/pod_pb.ts";

type Pair = { key: string; value: string };
const label = ({ key, value }: Pair): Pair => ({ key, value });

function resources(r: {
  cpuLimit: number;
  memLimitMb: number;
  diskLimitMb: number;
  fdLimit: number;
  gpuLimit: number;
}) {
  const { cpuLimit, memLimitMb, diskLimitMb, fdLimit, gpuLimit } = r;
  return { cpuLimit, memLimitMb, diskLimitMb, fdLimit, gpuLimit };
}

/** The health check fields both versions share (v1alpha adds more, refused on the way in). */
function healthCheck(check: {
  enabled: boolean;
  initialIntervalSecs: number;
  intervalSecs: number;
  maxConsecutiveFailures: number;
  timeoutSecs: number;
  type: number;
  commandCheck?: { command: string; unshareEnvironments: boolean } | undefined;
  httpCheck?: { scheme: string; port: number; path: string } | undefined;
}) {
  const { commandCheck: cmd, httpCheck: http } = check;
  return {
    enabled: check.enabled,
    initialIntervalSecs: check.initialIntervalSecs,
    intervalSecs: check.intervalSecs,
    maxConsecutiveFailures: check.maxConsecutiveFailures,
    timeoutSecs: check.timeoutSecs,
    type: check.type,
    ...(cmd
      ? { commandCheck: { command: cmd.command, unshareEnvironments: cmd.unshareEnvironments } }
      : {}),
    ...(http ? { httpCheck: { scheme: http.scheme, port: http.port, path: http.path } } : {}),
  };
}

function constraintV0(c: Constraint): ConstraintV0 {
  return create(ConstraintSchemaV0, {
    type: c.type as number,
    ...(c.labelConstraint
      ? {
          labelConstraint: {
            kind: c.labelConstraint.kind as number,
            condition: c.labelConstraint.condition as number,
            ...(c.labelConstraint.label ? { label: label(c.labelConstraint.label) } : {}),
            requirement: c.labelConstraint.requirement,
          },
        }
      : {}),
    ...(c.andConstraint
      ? { andConstraint: { constraints: c.andConstraint.constraints.map(constraintV0) } }
      : {}),
    ...(c.orConstraint
      ? { orConstraint: { constraints: c.orConstraint.constraints.map(constraintV0) } }
      : {}),
  });
}

function constraintV1(c: ConstraintV0): Constraint {
  return create(ConstraintSchema, {
    type: c.type as number,
    ...(c.labelConstraint
      ? {
          labelConstraint: {
            kind: c.labelConstraint.kind as number,
            condition: c.labelConstraint.condition as number,
            ...(c.labelConstraint.label ? { label: label(c.labelConstraint.label) } : {}),
            requirement: c.labelConstraint.requirement,
          },
        }
      : {}),
    ...(c.andConstraint
      ? { andConstraint: { constraints: c.andConstraint.constraints.map(constraintV1) } }
      : {}),
    ...(c.orConstraint
      ? { orConstraint: { constraints: c.orConstraint.constraints.map(constraintV1) } }
      : {}),
  });
}

/**
 * A pod spec as the v0 task config it means; what has no v0 field (a
 * second container, init containers, Kubernetes-style images, environment
 * and volumes) is refused as UNIMPLEMENTED naming the field under `field`.
 */
export function taskConfigOf(spec: PodSpec, field: string): TaskConfig {
  const missing = (name: string, what: string) => unimplemented(`${field}.${name}: ${what}`);
  if (spec.containers.length > 1)
    throw missing("containers", "one container per pod is supported (as in Peloton)");
  if (spec.initContainers.length)
    throw missing("initContainers", "init containers are not supported");
  if (spec.volumes.length) throw missing("volumes", "pod volumes are not supported; use `volume`");
  if (spec.mesosSpec) throw missing("mesosSpec", "not supported; use the container's Mesos fields");
  if (spec.hostPorts.length) throw missing("hostPorts", "not supported; use the container's ports");
  const main = spec.containers[0];
  if (main) {
    const where = `containers[0]`;
    if (main.image) throw missing(`${where}.image`, "set the Mesos `container` instead");
    if (main.entrypoint) throw missing(`${where}.entrypoint`, "set the Mesos `command` instead");
    if (main.environment.length)
      throw missing(`${where}.environment`, "set the Mesos `command.environment` instead");
    if (main.volumeMounts.length) throw missing(`${where}.volumeMounts`, "not supported");
    if (main.readinessCheck) throw missing(`${where}.readinessCheck`, "use livenessCheck");
  }
  const check = main?.livenessCheck;
  return create(TaskConfigSchema, {
    name: main?.name ?? "",
    labels: spec.labels.map(label),
    controller: spec.controller,
    killGracePeriodSeconds: spec.killGracePeriodSeconds,
    revocable: spec.revocable,
    ...(main?.resource ? { resource: resources(main.resource) } : {}),
    ...(main?.container ? { container: main.container } : {}),
    ...(main?.command ? { command: main.command } : {}),
    ...(main?.executor ? { executor: main.executor } : {}),
    ports: (main?.ports ?? []).map((p) => ({ name: p.name, value: p.value, envName: p.envName })),
    ...(check
      ? {
          healthCheck: healthCheck(check),
        }
      : {}),
    ...(spec.constraint ? { constraint: constraintV0(spec.constraint) } : {}),
    ...(spec.restartPolicy
      ? { restartPolicy: { maxFailures: spec.restartPolicy.maxFailures } }
      : {}),
    ...(spec.volume
      ? { volume: { containerPath: spec.volume.containerPath, sizeMB: spec.volume.sizeMb } }
      : {}),
    ...(spec.preemptionPolicy
      ? {
          preemptionPolicy: {
            killOnPreempt: spec.preemptionPolicy.killOnPreempt,
            type: spec.preemptionPolicy.killOnPreempt
              ? PreemptionPolicy_Type.PREEMPTIBLE
              : PreemptionPolicy_Type.NON_PREEMPTIBLE,
          },
        }
      : {}),
  });
}

/** A v0 task config as Peloton's v1alpha pod spec (named when `name` is given). */
export function podSpecOf(
  config: TaskConfig,
  name?: string,
): MessageInitShape<typeof PodSpecSchema> {
  const check = config.healthCheck;
  const hasContainer =
    config.name !== "" ||
    config.resource ||
    config.container ||
    config.command ||
    config.executor ||
    config.ports.length > 0 ||
    check;
  return {
    ...(name ? { podName: { value: name } } : {}),
    labels: config.labels.map(label),
    controller: config.controller,
    killGracePeriodSeconds: config.killGracePeriodSeconds,
    revocable: config.revocable,
    ...(config.constraint ? { constraint: constraintV1(config.constraint) } : {}),
    ...(config.volume
      ? { volume: { containerPath: config.volume.containerPath, sizeMb: config.volume.sizeMB } }
      : {}),
    ...(config.preemptionPolicy
      ? { preemptionPolicy: { killOnPreempt: config.preemptionPolicy.killOnPreempt } }
      : {}),
    ...(config.restartPolicy
      ? { restartPolicy: { maxFailures: config.restartPolicy.maxFailures } }
      : {}),
    containers: hasContainer
      ? [
          {
            name: config.name,
            ...(config.resource ? { resource: resources(config.resource) } : {}),
            ...(config.container ? { container: config.container } : {}),
            ...(config.command ? { command: config.command } : {}),
            ...(config.executor ? { executor: config.executor } : {}),
            ports: config.ports.map((p) => ({ name: p.name, value: p.value, envName: p.envName })),
            ...(check
              ? {
                  livenessCheck: healthCheck(check),
                }
              : {}),
          },
        ]
      : [],
  };
}
