import { taskConfigFor } from "../merge.ts";
import type { JobConfig } from "../schema/job-config.ts";
import type { TaskConfig } from "../schema/task-config.ts";

/**
 * A task config to check, and where its fields come from. Peloton checks the
 * merged config of every instance; checking `defaultConfig` once for all the
 * instances without an override, and each override once (merged), finds the
 * same problems without walking 100,000 identical instances, and lets a
 * problem name the place to fix: `defaultConfig.command` or
 * `instanceConfig.3.command`.
 */
export interface TaskSource {
  /** The merged config these instances run with. */
  readonly config: TaskConfig;
  /** The field path where a top-level task field of this config is written. */
  readonly fieldOf: (taskField: string) => string;
  /** The lowest and highest instance number using this config. */
  readonly lowest: number;
  readonly highest: number;
}

export function taskSources(config: JobConfig, instanceCount: number): TaskSource[] {
  const overridden = (i: number) => config.instanceConfig[String(i)] !== undefined;
  const sources: TaskSource[] = [];
  let lowest = 0;
  while (lowest < instanceCount && overridden(lowest)) lowest++;
  if (lowest < instanceCount) {
    let highest = instanceCount - 1;
    while (overridden(highest)) highest--;
    sources.push({
      config: config.defaultConfig,
      fieldOf: (f) => `defaultConfig.${f}`,
      lowest,
      highest,
    });
  }
  for (const [key, override] of Object.entries(config.instanceConfig)) {
    const instance = Number(key);
    if (instance >= instanceCount) continue; // out of range: reported by the instance rules
    const merged = taskConfigFor(config, instance);
    sources.push({
      config: merged,
      fieldOf: (f) =>
        (override as Record<string, unknown>)[f] !== undefined &&
        merged[f as keyof TaskConfig] === override[f as keyof TaskConfig]
          ? `instanceConfig.${key}.${f}`
          : `defaultConfig.${f}`,
      lowest: instance,
      highest: instance,
    });
  }
  return sources;
}
