import { formatAmount } from "../../../resources/format.ts";
import type { JobConfigProblem } from "../problems.ts";
import type { TaskSource } from "../task-sources.ts";

const FIELDS = ["cpuLimit", "memLimitMb", "diskLimitMb", "fdLimit", "gpuLimit"] as const;
/** GPUs are whole devices and file descriptors whole numbers (peloton-semantics.md: "gpu in whole devices"). */
const WHOLE = new Set<string>(["gpuLimit", "fdLimit"]);

/**
 * Ours: each resource is a finite number ≥ 0, gpu and fd limits whole; and a
 * task asks for some cpu or memory. Peloton takes any double here, and a task
 * that asks for nothing would be admitted everywhere without ever counting
 * against an entitlement.
 */
export function checkTaskResources(source: TaskSource): JobConfigProblem[] {
  const resource = source.config.resource;
  const field = (f: string) => `${source.fieldOf("resource")}.${f}`;
  const problems: JobConfigProblem[] = [];
  for (const f of FIELDS) {
    const v = resource?.[f] ?? 0;
    if (!Number.isFinite(v))
      problems.push({
        code: "NOT_A_NUMBER",
        field: field(f),
        message: `${f} ${v} is not a number`,
      });
    else if (v < 0)
      problems.push({
        code: "NEGATIVE_RESOURCE",
        field: field(f),
        message: `${f} ${formatAmount(v)} is negative; resources must be ≥ 0`,
      });
    else if (WHOLE.has(f) && !Number.isInteger(v))
      problems.push({
        code: "RESOURCE_NOT_WHOLE",
        field: field(f),
        message: `${f} ${formatAmount(v)} must be a whole number`,
      });
  }
  if ((resource?.cpuLimit ?? 0) === 0 && (resource?.memLimitMb ?? 0) === 0)
    problems.push({
      code: "TASK_ASKS_FOR_NOTHING",
      field: source.fieldOf("resource"),
      message:
        "cpuLimit and memLimitMb are both 0: a task must ask for some cpu or memory to be scheduled",
    });
  return problems;
}
