/** validateJobConfig: one named case per rule, the refusals with their field and numbers. */
import { describe, expect, it } from "vitest";
import {
  formatJobConfigProblem,
  type JobConfig,
  type JobConfigProblemCode,
  validateJobConfig,
} from "../src/index.ts";
import { batch, daemon, type JobBuilder, service, stateful } from "./support/job-builders.ts";

interface Case {
  name: string;
  job: JobBuilder | JobConfig;
  codes: JobConfigProblemCode[];
  /** The first problem's field and words. */
  field?: string;
  says?: string;
  maxTasksPerJob?: number;
}

/** A config the schema would refuse, for callers that build configs in code. */
function tampered(job: JobBuilder, change: (c: JobConfig) => void): JobConfig {
  const c = job.build();
  change(c);
  return c;
}

const port = (name: string, more: { value?: number; envName?: string } = {}) => ({ name, ...more });

const cases: Case[] = [
  // Valid configs
  { name: "a one-task batch job", job: batch(), codes: [] },
  {
    name: "a service with a dynamic port exported as an env name",
    job: service(3).task({ ports: [port("http", { envName: "HTTP_PORT" })] }),
    codes: [],
  },
  { name: "a STATEFUL job with its volume", job: stateful(2), codes: [] },
  {
    name: "a SERVICE with a volume is Peloton's stateful job",
    job: service(2).task({ volume: { containerPath: "/data", sizeMB: 10 } }),
    codes: [],
  },
  {
    name: "a batch gang: 2 ≤ 3 ≤ 4",
    job: batch(4).sla({ minimumRunningInstances: 2, maximumRunningInstances: 3 }),
    codes: [],
  },
  {
    name: "instance 0 of a batch job as controller",
    job: batch(3).instance(0, { controller: true }),
    codes: [],
  },
  { name: "a DAEMON ignores instanceCount", job: daemon().set({ instanceCount: -3 }), codes: [] },
  {
    name: "no default command when every instance brings its own",
    job: batch(2)
      .task({ command: undefined })
      .instance(0, { command: { value: "a" } })
      .instance(1, { command: { value: "b" } }),
    codes: [],
  },
  {
    name: "a revocable job that is preemptible",
    job: batch().sla({ revocable: true, preemptible: true }),
    codes: [],
  },
  // Resources (ours)
  {
    name: "a negative cpuLimit",
    job: batch().resources({ cpuLimit: -1, memLimitMb: 64 }),
    codes: ["NEGATIVE_RESOURCE"],
    field: "defaultConfig.resource.cpuLimit",
    says: "cpuLimit -1 is negative; resources must be ≥ 0",
  },
  {
    name: "a non-finite number from code that skipped the schema",
    job: tampered(batch(), (c) => {
      c.defaultConfig.resource!.memLimitMb = Number.POSITIVE_INFINITY;
    }),
    codes: ["NOT_A_NUMBER"],
    field: "defaultConfig.resource.memLimitMb",
  },
  {
    name: "half a GPU",
    job: batch().resources({ cpuLimit: 1, gpuLimit: 0.5 }),
    codes: ["RESOURCE_NOT_WHOLE"],
    says: "gpuLimit 0.5 must be a whole number",
  },
  {
    name: "a task asking for no cpu and no memory",
    job: batch().resources({ diskLimitMb: 10 }),
    codes: ["TASK_ASKS_FOR_NOTHING"],
    field: "defaultConfig.resource",
  },
  {
    name: "a task without a resource block asks for nothing",
    job: batch().task({ resource: undefined }),
    codes: ["TASK_ASKS_FOR_NOTHING"],
  },
  // Instances
  {
    name: "a fractional instance count",
    job: batch().set({ instanceCount: 1.5 }),
    codes: ["INVALID_COUNT"],
    field: "instanceCount",
  },
  {
    name: "a batch job of no tasks",
    job: batch(0),
    codes: ["BATCH_WITHOUT_INSTANCES"],
    says: "a BATCH job needs instanceCount ≥ 1",
  },
  { name: "a service may have 0 instances", job: service(0), codes: [] },
  {
    name: "more tasks than a job may have (Peloton's 100,000)",
    job: batch(100_001),
    codes: ["TOO_MANY_INSTANCES"],
    says: "instanceCount 100001 is above the 100000 tasks a job may have",
  },
  {
    name: "the limit is an option",
    job: batch(11),
    maxTasksPerJob: 10,
    codes: ["TOO_MANY_INSTANCES"],
  },
  {
    name: "an override for an instance that does not exist",
    job: batch(2).instance(5, { name: "x" }),
    codes: ["INSTANCE_CONFIG_OUT_OF_RANGE"],
    field: "instanceConfig.5",
    says: "instance 5 does not exist: instances are 0–1 (instanceCount 2)",
  },
  {
    name: "a DAEMON with per-instance config",
    job: daemon().instance(0, { name: "x" }),
    codes: ["DAEMON_INSTANCE_CONFIG"],
  },
  // SLA
  {
    name: "maximumRunningInstances above instanceCount",
    job: batch(3).sla({ maximumRunningInstances: 4 }),
    codes: ["MAX_RUNNING_ABOVE_INSTANCE_COUNT"],
    says: "maximumRunningInstances 4 is above instanceCount 3",
  },
  {
    name: "minimumRunningInstances above maximumRunningInstances",
    job: batch(5).sla({ minimumRunningInstances: 3, maximumRunningInstances: 2 }),
    codes: ["MIN_RUNNING_ABOVE_MAX_RUNNING"],
    says: "minimumRunningInstances 3 is above maximumRunningInstances 2",
  },
  {
    name: "minimumRunningInstances above instanceCount when no maximum is set",
    job: batch(2).sla({ minimumRunningInstances: 3 }),
    codes: ["MIN_RUNNING_ABOVE_MAX_RUNNING"],
    says: "minimumRunningInstances 3 is above instanceCount 2",
  },
  {
    name: "a service with maxRunningTime (Peloton: stateless jobs set no batch SLA)",
    job: service().sla({ maxRunningTime: 300 }),
    codes: ["SLA_FIELD_NOT_FOR_TYPE"],
    field: "sla.maxRunningTime",
    says: "maxRunningTime 300 applies to BATCH jobs only; it must be 0 for a SERVICE job",
  },
  {
    name: "a stateful job with a running-instance bound",
    job: stateful().sla({ maximumRunningInstances: 1 }),
    codes: ["SLA_FIELD_NOT_FOR_TYPE"],
  },
  {
    name: "revocable but not preemptible",
    job: service().sla({ revocable: true }),
    codes: ["REVOCABLE_NOT_PREEMPTIBLE"],
    field: "sla.revocable",
  },
  {
    name: "a DAEMON cannot have gangs",
    job: daemon().sla({ minimumRunningInstances: 2 }),
    codes: ["DAEMON_GANG"],
    says: "a DAEMON job cannot have gangs: minimumRunningInstances 2 must be 0",
  },
  {
    name: "a negative priority",
    job: batch().sla({ priority: -1 }),
    codes: ["INVALID_COUNT"],
    field: "sla.priority",
  },
  // Task config
  {
    name: "no command",
    job: batch().task({ command: undefined }),
    codes: ["COMMAND_MISSING"],
    field: "defaultConfig.command.value",
    says: "instance 0 would run no command: give command.value",
  },
  {
    name: "an override's empty command is the override's problem",
    job: batch(3).instance(2, { command: { value: " " } }),
    codes: ["COMMAND_MISSING"],
    field: "instanceConfig.2.command.value",
  },
  {
    name: "a health check on a batch task (Peloton)",
    job: batch().task({ healthCheck: { type: 1, commandCheck: { command: "true" } } }),
    codes: ["HEALTH_CHECK_ON_BATCH"],
  },
  {
    name: "a service health check is fine",
    job: service().task({ healthCheck: { type: 1, commandCheck: { command: "true" } } }),
    codes: [],
  },
  {
    name: "killOnPreempt on a service (Peloton)",
    job: service().task({ preemptionPolicy: { killOnPreempt: true } }),
    codes: ["KILL_ON_PREEMPT_NOT_FOR_TYPE"],
  },
  {
    name: "a controller other than instance 0 (Peloton)",
    job: batch(3).instance(1, { controller: true }),
    codes: ["CONTROLLER_NOT_INSTANCE_ZERO"],
    field: "instanceConfig.1.controller",
    says: "only instance 0 may be a controller; instance 1 would be",
  },
  {
    name: "a default that makes every instance a controller",
    job: batch(3).task({ controller: true }),
    codes: ["CONTROLLER_NOT_INSTANCE_ZERO"],
    field: "defaultConfig.controller",
    says: "only instance 0 may be a controller; instances 0–2 would be",
  },
  {
    name: "a controller in a service",
    job: service(1).task({ controller: true }),
    codes: ["CONTROLLER_NOT_BATCH"],
  },
  {
    name: "a gang member overriding the job's preemptibility (Peloton)",
    job: batch(4)
      .sla({ minimumRunningInstances: 2, preemptible: true })
      .instance(1, { preemptionPolicy: { type: "NON_PREEMPTIBLE" } }),
    codes: ["PREEMPTION_POLICY_SPLITS_GANG"],
    field: "instanceConfig.1.preemptionPolicy.type",
  },
  {
    name: "outside the gang the override is allowed",
    job: batch(4)
      .sla({ minimumRunningInstances: 2, preemptible: true })
      .instance(3, { preemptionPolicy: { type: "NON_PREEMPTIBLE" } }),
    codes: [],
  },
  {
    name: "a negative maxFailures",
    job: batch().task({ restartPolicy: { maxFailures: -1 } }),
    codes: ["INVALID_COUNT"],
    field: "defaultConfig.restartPolicy.maxFailures",
    says: "maxFailures -1 must be a whole number ≥ 0",
  },
  {
    name: "a fractional kill grace period",
    job: batch().task({ killGracePeriodSeconds: 1.5 }),
    codes: ["INVALID_COUNT"],
  },
  // Volumes
  {
    name: "a STATEFUL job without a volume",
    job: stateful().task({ volume: undefined }),
    codes: ["VOLUME_REQUIRED"],
    field: "defaultConfig.volume",
  },
  {
    name: "a volume of 0 MB with no path",
    job: stateful().task({ volume: { containerPath: "", sizeMB: 0 } }),
    codes: ["VOLUME_INVALID", "VOLUME_INVALID"],
    field: "defaultConfig.volume.containerPath",
  },
  {
    name: "a service where one instance has a volume and the others none",
    job: service(2).instance(1, { volume: { containerPath: "/d", sizeMB: 1 } }),
    codes: ["VOLUME_REQUIRED"],
    field: "defaultConfig.volume",
  },
  {
    name: "a batch task with a persistent volume",
    job: batch().task({ volume: { containerPath: "/d", sizeMB: 1 } }),
    codes: ["VOLUME_NOT_FOR_TYPE"],
  },
  // Ports
  {
    name: "a port without a name (Peloton)",
    job: service().task({ ports: [port("", { value: 80 })] }),
    codes: ["PORT_NAME_MISSING"],
    field: "defaultConfig.ports[0].name",
  },
  {
    name: "a port name with a space",
    job: service().task({ ports: [port("my port", { value: 80 })] }),
    codes: ["PORT_NAME_INVALID"],
  },
  {
    name: "two ports named alike",
    job: service().task({ ports: [port("http", { value: 80 }), port("http", { value: 81 })] }),
    codes: ["PORT_NAME_DUPLICATE"],
    field: "defaultConfig.ports[1].name",
    says: 'port name "http" is already used by ports[0]',
  },
  {
    name: "a dynamic port without an env name (Peloton)",
    job: service().task({ ports: [port("http")] }),
    codes: ["PORT_ENV_NAME_MISSING"],
    field: "defaultConfig.ports[0].envName",
  },
  {
    name: "an env name that is not a variable name",
    job: service().task({ ports: [port("http", { envName: "1PORT" })] }),
    codes: ["PORT_ENV_NAME_INVALID"],
  },
  {
    name: "a static port above 65535",
    job: service().task({ ports: [port("http", { value: 70000 })] }),
    codes: ["PORT_VALUE_OUT_OF_RANGE"],
    says: "static port 70000 must be a whole number from 1 to 65535",
  },
  {
    name: "the same static port twice",
    job: service().task({ ports: [port("a", { value: 8080 }), port("b", { value: 8080 })] }),
    codes: ["PORT_VALUE_DUPLICATE"],
  },
  // Reporting
  {
    name: "a default's problem inherited by an override is reported once, at the default",
    job: batch(3).resources({ cpuLimit: -2, memLimitMb: 1 }).instance(1, { name: "one" }),
    codes: ["NEGATIVE_RESOURCE"],
    field: "defaultConfig.resource.cpuLimit",
  },
  {
    name: "independent problems all come back: job rules first, then task rules",
    job: batch(2)
      .sla({ maximumRunningInstances: 3 })
      .resources({ cpuLimit: -1, memLimitMb: 1 })
      .task({ ports: [port("")] }),
    codes: [
      "MAX_RUNNING_ABOVE_INSTANCE_COUNT",
      "NEGATIVE_RESOURCE",
      "PORT_NAME_MISSING",
      "PORT_ENV_NAME_MISSING",
    ],
  },
];

describe("job config validation", () => {
  it.each(cases)("$name", ({ job, codes, field, says, maxTasksPerJob }) => {
    const config = "build" in job ? job.build() : job;
    const problems = validateJobConfig(config, maxTasksPerJob ? { maxTasksPerJob } : {});
    expect(problems.map((p) => p.code)).toEqual(codes);
    if (field) expect(problems[0]?.field).toBe(field);
    if (says) expect(problems[0]?.message).toBe(says);
  });

  it("a problem reads as one line: field, then the rule with its numbers", () => {
    const [p] = validateJobConfig(
      batch(2)
        .instance(1, { resource: { cpuLimit: -3, memLimitMb: 1 } })
        .build(),
    );
    expect(formatJobConfigProblem(p!)).toBe(
      "instanceConfig.1.resource.cpuLimit: cpuLimit -3 is negative; resources must be ≥ 0",
    );
  });
});
