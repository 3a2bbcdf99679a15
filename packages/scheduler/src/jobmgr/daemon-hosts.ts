/**
 * Which hosts a DAEMON job runs on: every UP host that could take one of its
 * tasks when empty — its constraint's HOST labels match (TASK labels count
 * nothing here: they depend on what runs, not on the host), the GPU and
 * exclusive-host rules let it in, and the host is big enough.
 */
import {
  constraintAllows,
  constraintNamesExclusive,
  exclusiveFilter,
  gpuFilter,
  HOSTNAME_ATTRIBUTE,
  type JobConfig,
  type Resources,
  resourcesLessOrEqual,
  taskResources,
} from "@peloton/engine";

export interface DaemonCandidateHost {
  hostname: string;
  attributes: Readonly<Record<string, string>>;
  total: Resources;
}

export function eligibleDaemonHosts(
  config: JobConfig,
  hosts: readonly DaemonCandidateHost[],
): string[] {
  const task = config.defaultConfig;
  const ask = taskResources(task);
  const namesExclusive = constraintNamesExclusive(task.constraint);
  return hosts
    .filter((h) => {
      if (gpuFilter(ask.gpu, h.total.gpu) !== null) return false;
      if (exclusiveFilter(h.attributes, namesExclusive) !== null) return false;
      if (!resourcesLessOrEqual(ask, h.total)) return false;
      return constraintAllows(task.constraint, {
        count: (kind, label) => {
          if (kind === "TASK") return 0;
          const value = Object.hasOwn(h.attributes, label.key)
            ? h.attributes[label.key]
            : label.key === HOSTNAME_ATTRIBUTE
              ? h.hostname
              : undefined;
          return value === label.value ? 1 : 0;
        },
      });
    })
    .map((h) => h.hostname)
    .sort();
}
