import type { JobConfig } from "./schema/job-config.ts";
import type { TaskConfig } from "./schema/task-config.ts";

/**
 * One instance's task config: its `instanceConfig` entry merged over
 * `defaultConfig` the way Peloton's `taskconfig.Merge`
 * (pkg/common/taskconfig/merge.go) does it — field by field at the top level
 * only, never recursively: a field the override gives replaces the default's
 * whole field (an override's `resource` or `command` is taken as it is), a
 * field it leaves out keeps the default's. An instance without an entry gets
 * `defaultConfig` itself.
 *
 * Where we differ: Go's proto3 structs cannot tell an unset bool from `false`,
 * so Peloton's Merge always copies the override's `controller` and
 * `revocable`, silently clearing a `true` set in `defaultConfig`. We can tell,
 * so a bool the override leaves out keeps the default's value too.
 */
export function taskConfigFor(config: JobConfig, instance: number): TaskConfig {
  const override = config.instanceConfig[String(instance)];
  if (override === undefined) return config.defaultConfig;
  const merged: Record<string, unknown> = { ...config.defaultConfig };
  for (const [field, value] of Object.entries(override))
    if (value !== undefined && !isEmptyScalar(value)) merged[field] = value;
  return merged as TaskConfig;
}

/**
 * Peloton's Merge keeps the default's value when the override's string is ""
 * or its number is 0 (proto3's "not set"); lists and messages count as set
 * whenever present, even empty (`ports: []` clears the default's ports).
 */
function isEmptyScalar(value: unknown): boolean {
  return value === "" || value === 0;
}
