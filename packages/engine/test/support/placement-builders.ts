/**
 * Fixture builders for placement (STYLE.md §8):
 * `host("h1").cpu(8).zone("a")`, `task("t1").cpu(2).spread()`, and
 * constraint helpers `hostIs("zone", "a")`, `and(...)`, `not(...)`.
 * Defaults: an UP host with 8 cpu, 8192 MB memory, 100000 MB disk, no GPU,
 * ports 31000–31009; a PACK_HOST task of job "job" asking 1 cpu and 128 MB.
 */
import type {
  Constraint,
  ConstraintCondition,
  PlacementHost,
  PlacementHostState,
  PlacementStrategy,
  PlacementTask,
  PortRange,
  Resources,
} from "../../src/index.ts";

export class HostBuilder {
  private total: Resources = { cpu: 8, gpu: 0, memory: 8192, disk: 100_000 };
  private freeOverride: Partial<Resources> = {};
  private hostState: PlacementHostState = "UP";
  private readonly attrs: Record<string, string> = {};
  private ranges: PortRange[] = [{ begin: 31000, end: 31009 }];
  private readonly labels: Record<string, Record<string, number>> = {};
  private readonly jobs: Record<string, number> = {};

  constructor(readonly hostname: string) {}

  /** Sets total (and free, unless `free` says otherwise) for the given kinds. */
  res(r: Partial<Resources>): this {
    this.total = { ...this.total, ...r };
    return this;
  }
  cpu(n: number): this {
    return this.res({ cpu: n });
  }
  gpus(n: number): this {
    return this.res({ gpu: n });
  }
  /** What is free now (the rest of `total` is in use). */
  free(r: Partial<Resources>): this {
    this.freeOverride = { ...this.freeOverride, ...r };
    return this;
  }
  state(s: PlacementHostState): this {
    this.hostState = s;
    return this;
  }
  attr(key: string, value: string): this {
    this.attrs[key] = value;
    return this;
  }
  zone(z: string): this {
    return this.attr("zone", z);
  }
  exclusive(value = "dedicated"): this {
    return this.attr("peloton/exclusive", value);
  }
  ports(...ranges: [number, number][]): this {
    this.ranges = ranges.map(([begin, end]) => ({ begin, end }));
    return this;
  }
  /** `count` tasks labelled key=value already run here. */
  taskLabel(key: string, value: string, count = 1): this {
    this.labels[key] = { ...this.labels[key], [value]: count };
    return this;
  }
  /** `count` tasks of `job` already run here. */
  jobTasks(job: string, count: number): this {
    this.jobs[job] = count;
    return this;
  }
  build(): PlacementHost {
    return {
      hostname: this.hostname,
      agentId: `agent-${this.hostname}`,
      state: this.hostState,
      total: { ...this.total },
      free: { ...this.total, ...this.freeOverride },
      attributes: { ...this.attrs },
      freePorts: this.ranges.map((r) => ({ ...r })),
      taskLabels: structuredClone(this.labels),
      jobTasks: { ...this.jobs },
    };
  }
}

export function host(hostname: string): HostBuilder {
  return new HostBuilder(hostname);
}

export class TaskBuilder {
  private resources: Resources = { cpu: 1, gpu: 0, memory: 128, disk: 0 };
  private jobId = "job";
  private instance = 0;
  private gangId: string | undefined;
  private dynamicPorts = 0;
  private staticPorts: number[] = [];
  private constraintValue: Constraint | undefined;
  private strategy: PlacementStrategy = "PACK_HOST";
  private readonly labels: { key: string; value: string }[] = [];
  private volumeHost: string | undefined;
  private previousHost: string | undefined;

  constructor(readonly taskId: string) {}

  res(r: Partial<Resources>): this {
    this.resources = { ...this.resources, ...r };
    return this;
  }
  cpu(n: number): this {
    return this.res({ cpu: n });
  }
  gpus(n: number): this {
    return this.res({ gpu: n });
  }
  job(id: string, instance = 0): this {
    this.jobId = id;
    this.instance = instance;
    return this;
  }
  gang(id: string): this {
    this.gangId = id;
    return this;
  }
  ports(dynamic: number, ...statics: number[]): this {
    this.dynamicPorts = dynamic;
    this.staticPorts = statics;
    return this;
  }
  constraint(c: Constraint): this {
    this.constraintValue = c;
    return this;
  }
  spread(): this {
    this.strategy = "SPREAD_JOB";
    return this;
  }
  label(key: string, value: string): this {
    this.labels.push({ key, value });
    return this;
  }
  volumeOn(hostname: string): this {
    this.volumeHost = hostname;
    return this;
  }
  ranOn(hostname: string): this {
    this.previousHost = hostname;
    return this;
  }
  build(): PlacementTask {
    return {
      taskId: this.taskId,
      jobId: this.jobId,
      instance: this.instance,
      ...(this.gangId === undefined ? {} : { gangId: this.gangId }),
      resources: { ...this.resources },
      ports: { dynamic: this.dynamicPorts, static: [...this.staticPorts] },
      ...(this.constraintValue === undefined ? {} : { constraint: this.constraintValue }),
      strategy: this.strategy,
      labels: this.labels.map((l) => ({ ...l })),
      ...(this.volumeHost === undefined ? {} : { volumeHost: this.volumeHost }),
      ...(this.previousHost === undefined ? {} : { previousHost: this.previousHost }),
    };
  }
}

export function task(taskId: string): TaskBuilder {
  return new TaskBuilder(taskId);
}

/** `count` tasks `${prefix}0…` of one job, sharing their asks as a job's tasks do. */
export function tasksOf(prefix: string, count: number, shape: (t: TaskBuilder) => TaskBuilder) {
  const first = shape(task(`${prefix}0`)).build();
  return Array.from({ length: count }, (_, i) => ({
    ...first,
    taskId: `${prefix}${i}`,
    instance: i,
  }));
}

function label(
  kind: "HOST" | "TASK",
  key: string,
  value: string,
  condition: ConstraintCondition,
  requirement: number,
): Constraint {
  return { type: "LABEL_CONSTRAINT", kind, label: { key, value }, condition, requirement };
}

/** The host has attribute key=value (HOST, EQUAL, 1). */
export const hostIs = (key: string, value: string): Constraint =>
  label("HOST", key, value, "EQUAL", 1);
/** HOST label constraint with any condition. */
export const hostLabel = (key: string, value: string, c: ConstraintCondition, n: number) =>
  label("HOST", key, value, c, n);
/** TASK label constraint: tasks labelled key=value on the host compared with n. */
export const tasksLabelled = (key: string, value: string, c: ConstraintCondition, n: number) =>
  label("TASK", key, value, c, n);
export const and = (...constraints: Constraint[]): Constraint => ({
  type: "AND_CONSTRAINT",
  constraints,
});
export const or = (...constraints: Constraint[]): Constraint => ({
  type: "OR_CONSTRAINT",
  constraints,
});
export const not = (constraint: Constraint): Constraint => ({ type: "NOT_CONSTRAINT", constraint });
