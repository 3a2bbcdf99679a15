import type { JobType } from "../../../vocabulary/job-states.ts";
import type { JobConfigProblem } from "../problems.ts";
import type { TaskSource } from "../task-sources.ts";

/**
 * Ours (peloton-semantics.md §3: a stateful job is a service whose tasks have
 * a volume, or type STATEFUL): every task of a stateful job has a persistent
 * volume with a `containerPath` and a whole `sizeMB` > 0, and only stateful
 * jobs have one — a batch or daemon task's volume would never be reattached.
 */
export function checkVolume(source: TaskSource, kind: JobType): JobConfigProblem[] {
  const volume = source.config.volume;
  const field = source.fieldOf("volume");
  if (kind !== "STATEFUL")
    return volume !== undefined
      ? [
          {
            code: "VOLUME_NOT_FOR_TYPE",
            field,
            message: `a ${kind} job's tasks take no persistent volume (only stateful services do)`,
          },
        ]
      : [];
  if (volume === undefined)
    return [
      {
        code: "VOLUME_REQUIRED",
        field,
        message: "every task of a stateful job needs a volume with containerPath and sizeMB",
      },
    ];
  const problems: JobConfigProblem[] = [];
  if (volume.containerPath.trim() === "")
    problems.push({
      code: "VOLUME_INVALID",
      field: `${field}.containerPath`,
      message: "the volume needs a containerPath (where it is mounted in the container)",
    });
  if (!(Number.isInteger(volume.sizeMB) && volume.sizeMB > 0))
    problems.push({
      code: "VOLUME_INVALID",
      field: `${field}.sizeMB`,
      message: `volume sizeMB ${volume.sizeMB} must be a whole number > 0`,
    });
  return problems;
}
