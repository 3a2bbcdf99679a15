/**
 * Job config builders (STYLE.md §8): `batch(4).task({ ports: [...] }).instance(0, {...})`.
 * Defaults: one instance asking for 1 cpu and 64 MB, running `sleep 1` — so a
 * case only states what it is about. Built through the real schema, so the
 * output is exactly what the API hands the engine.
 */
import {
  type JobConfig,
  type JobConfigInput,
  type JobType,
  jobConfigSchema,
  type TaskConfigInput,
} from "../../src/index.ts";

type Sla = NonNullable<JobConfigInput["sla"]>;

export class JobBuilder {
  private config: JobConfigInput;

  constructor(type: JobType, instanceCount: number) {
    this.config = {
      name: `test-${type.toLowerCase()}`,
      type,
      instanceCount,
      defaultConfig: {
        resource: { cpuLimit: 1, memLimitMb: 64 },
        command: { value: "sleep 1" },
      },
    };
  }

  /** Fields of `defaultConfig`, replacing the ones given. */
  task(fields: TaskConfigInput): this {
    this.config = { ...this.config, defaultConfig: { ...this.config.defaultConfig, ...fields } };
    return this;
  }
  /** `defaultConfig.resource`, replacing the default 1 cpu / 64 MB. */
  resources(resource: NonNullable<TaskConfigInput["resource"]>): this {
    return this.task({ resource });
  }
  instance(n: number, overrides: TaskConfigInput): this {
    this.config = {
      ...this.config,
      instanceConfig: { ...this.config.instanceConfig, [String(n)]: overrides },
    };
    return this;
  }
  sla(sla: Sla): this {
    this.config = { ...this.config, sla: { ...(this.config.sla as object), ...sla } };
    return this;
  }
  set(fields: Partial<JobConfigInput>): this {
    this.config = { ...this.config, ...fields };
    return this;
  }
  input(): JobConfigInput {
    return this.config;
  }
  build(): JobConfig {
    return jobConfigSchema.parse(this.config);
  }
}

export const batch = (instances = 1) => new JobBuilder("BATCH", instances);
export const service = (instances = 1) => new JobBuilder("SERVICE", instances);
export const stateful = (instances = 1) =>
  new JobBuilder("STATEFUL", instances).task({ volume: { containerPath: "/data", sizeMB: 100 } });
export const daemon = () => new JobBuilder("DAEMON", 0);
