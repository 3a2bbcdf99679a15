/**
 * Whether an instance's run must be replaced to move it between two config
 * versions: only when what it is launched with differs (its merged task
 * config and the job's labels, which every task carries). Anything else (SLA,
 * description, another instance's override) only moves its config version.
 */
import { taskConfigFor } from "../job-config/merge.ts";
import type { JobConfig } from "../job-config/schema/job-config.ts";

export function instanceConfigChanged(from: JobConfig, to: JobConfig, instance: number): boolean {
  if (stable(from.labels) !== stable(to.labels)) return true;
  return stable(taskConfigFor(from, instance)) !== stable(taskConfigFor(to, instance));
}

/** JSON with object keys sorted: two configs parsed from differently ordered YAML compare equal. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
