/** What the scheduler reads off a job config: merged task configs, resources, kind, gangs, environment. */
import { describe, expect, it } from "vitest";
import {
  gangsOf,
  jobKind,
  taskConfigFor,
  taskEnvironment,
  taskPreemptible,
  taskResources,
  taskRevocable,
} from "../src/index.ts";
import { batch, daemon, service, stateful } from "./support/job-builders.ts";

describe("taskConfigFor: Peloton's taskconfig.Merge", () => {
  const job = batch(3)
    .task({ name: "worker", ports: [{ name: "http", envName: "P" }], killGracePeriodSeconds: 30 })
    .instance(0, { name: "first", resource: { cpuLimit: 4 } })
    .instance(1, { name: "", killGracePeriodSeconds: 0, ports: [] })
    .instance(2, { controller: false })
    .build();

  const cases = [
    {
      name: "an instance without an override runs defaultConfig itself",
      get: () => taskConfigFor(batch(2).instance(0, { name: "x" }).build(), 1),
      expect: (t: ReturnType<typeof taskConfigFor>) => expect(t.name).toBeUndefined(),
    },
    {
      name: "a field the override gives replaces the default's",
      get: () => taskConfigFor(job, 0),
      expect: (t: ReturnType<typeof taskConfigFor>) => expect(t.name).toBe("first"),
    },
    {
      name: "top level only: the override's resource block is taken whole (memory back to 0)",
      get: () => taskConfigFor(job, 0),
      expect: (t: ReturnType<typeof taskConfigFor>) =>
        expect(t.resource).toEqual({
          cpuLimit: 4,
          memLimitMb: 0,
          diskLimitMb: 0,
          fdLimit: 0,
          gpuLimit: 0,
        }),
    },
    {
      name: "fields the override leaves out keep the default's",
      get: () => taskConfigFor(job, 0),
      expect: (t: ReturnType<typeof taskConfigFor>) => expect(t.command?.value).toBe("sleep 1"),
    },
    {
      name: 'proto3 "not set": an empty string and a 0 keep the default\'s',
      get: () => taskConfigFor(job, 1),
      expect: (t: ReturnType<typeof taskConfigFor>) => {
        expect(t.name).toBe("worker");
        expect(t.killGracePeriodSeconds).toBe(30);
      },
    },
    {
      name: "an empty list is given, and clears the default's",
      get: () => taskConfigFor(job, 1),
      expect: (t: ReturnType<typeof taskConfigFor>) => expect(t.ports).toEqual([]),
    },
    {
      name: "a bool the override gives wins, even false",
      get: () =>
        taskConfigFor(
          batch(1).task({ revocable: true }).instance(0, { revocable: false }).build(),
          0,
        ),
      expect: (t: ReturnType<typeof taskConfigFor>) => expect(t.revocable).toBe(false),
    },
    {
      name: "ours: a bool the override leaves out keeps the default's (Peloton would clear it)",
      get: () =>
        taskConfigFor(batch(1).task({ revocable: true }).instance(0, { name: "x" }).build(), 0),
      expect: (t: ReturnType<typeof taskConfigFor>) => expect(t.revocable).toBe(true),
    },
  ];
  it.each(cases)("$name", (c) => c.expect(c.get()));
});

describe("taskResources, jobKind, preemptible and revocable", () => {
  it("resources in engine units: cpu, gpu, memory MB, disk MB", () => {
    const t = taskConfigFor(
      batch()
        .resources({ cpuLimit: 0.5, memLimitMb: 256, diskLimitMb: 1024, gpuLimit: 1, fdLimit: 10 })
        .build(),
      0,
    );
    expect(taskResources(t)).toEqual({ cpu: 0.5, gpu: 1, memory: 256, disk: 1024 });
  });

  it("no resource block asks for nothing", () => {
    expect(taskResources({})).toEqual({ cpu: 0, gpu: 0, memory: 0, disk: 0 });
  });

  const kinds = [
    { name: "BATCH", job: batch(), kind: "BATCH" },
    { name: "SERVICE without a volume", job: service(), kind: "SERVICE" },
    {
      name: "SERVICE with a volume is STATEFUL",
      job: service().task({ volume: { containerPath: "/d", sizeMB: 1 } }),
      kind: "STATEFUL",
    },
    {
      name: "a volume in one override makes it STATEFUL",
      job: service(2).instance(1, { volume: { containerPath: "/d", sizeMB: 1 } }),
      kind: "STATEFUL",
    },
    { name: "type STATEFUL", job: stateful(), kind: "STATEFUL" },
    { name: "DAEMON", job: daemon(), kind: "DAEMON" },
  ] as const;
  it.each(kinds)("jobKind: $name", ({ job, kind }) => expect(jobKind(job.build())).toBe(kind));

  const flags = [
    {
      name: "the job's sla.preemptible by default",
      job: batch().sla({ preemptible: true }),
      preemptible: true,
      revocable: false,
    },
    {
      name: "a task's preemptionPolicy.type overrides it",
      job: batch()
        .sla({ preemptible: true })
        .task({ preemptionPolicy: { type: "NON_PREEMPTIBLE" } }),
      preemptible: false,
      revocable: false,
    },
    {
      name: "the job's sla.revocable by default",
      job: batch().sla({ revocable: true, preemptible: true }),
      preemptible: true,
      revocable: true,
    },
    {
      name: "a task's revocable overrides it",
      job: batch().sla({ revocable: true, preemptible: true }).task({ revocable: false }),
      preemptible: true,
      revocable: false,
    },
  ];
  it.each(flags)("$name", ({ job, preemptible, revocable }) => {
    const c = job.build();
    const t = taskConfigFor(c, 0);
    expect(taskPreemptible(c, t)).toBe(preemptible);
    expect(taskRevocable(c, t)).toBe(revocable);
  });
});

describe("gangsOf: Peloton's ConvertToResMgrGangs", () => {
  const cases = [
    {
      name: "no minimumRunningInstances: every instance a gang of one, in the given order",
      job: batch(3),
      instances: [2, 0, 1],
      gangs: [[2], [0], [1]],
    },
    {
      name: "minimumRunningInstances 1 is no gang",
      job: batch(3).sla({ minimumRunningInstances: 1 }),
      instances: [0, 1, 2],
      gangs: [[0], [1], [2]],
    },
    {
      name: "the first m instances form one gang, placed first",
      job: batch(5).sla({ minimumRunningInstances: 3 }),
      instances: [4, 2, 0, 3, 1],
      gangs: [[0, 1, 2], [4], [3]],
    },
    {
      name: "restarting part of a gang gangs only those instances",
      job: batch(5).sla({ minimumRunningInstances: 3 }),
      instances: [4, 2, 0],
      gangs: [[0, 2], [4]],
    },
    {
      name: "revocable tasks never join a gang",
      job: batch(4)
        .sla({ minimumRunningInstances: 3, preemptible: true })
        .instance(1, { revocable: true }),
      instances: [0, 1, 2, 3],
      gangs: [[0, 2], [1], [3]],
    },
    {
      name: "services never gang (Peloton skips SERVICE)",
      job: service(3).sla({ minimumRunningInstances: 3 }),
      instances: [0, 1, 2],
      gangs: [[0], [1], [2]],
    },
  ];
  it.each(cases)("$name", ({ job, instances, gangs }) =>
    expect(gangsOf(job.build(), instances).map((g) => g.instances)).toEqual(gangs),
  );

  it("a gang carries its summed resources and its flags", () => {
    const job = batch(3)
      .sla({ minimumRunningInstances: 2 })
      .resources({ cpuLimit: 2, memLimitMb: 100 })
      .instance(1, { resource: { cpuLimit: 1, memLimitMb: 50 } })
      .build();
    const [gang] = gangsOf(job, [0, 1]);
    // 2 + 1 cpu, 100 + 50 MB.
    expect(gang).toEqual({
      instances: [0, 1],
      resources: { cpu: 3, gpu: 0, memory: 150, disk: 0 },
      preemptible: false,
      revocable: false,
      controller: false,
      // Each task's own request, for "does any host hold it" (admission/never-fits.ts).
      shapes: [
        { resources: { cpu: 2, gpu: 0, memory: 100, disk: 0 }, ports: 0 },
        { resources: { cpu: 1, gpu: 0, memory: 50, disk: 0 }, ports: 0 },
      ],
    });
  });

  it("a controller counts as one only in a gang of one (Peloton's isController)", () => {
    const alone = gangsOf(batch(2).instance(0, { controller: true }).build(), [0]);
    const ganged = gangsOf(
      batch(2).sla({ minimumRunningInstances: 2 }).instance(0, { controller: true }).build(),
      [0, 1],
    );
    expect(alone[0]?.controller).toBe(true);
    expect(ganged[0]?.controller).toBe(false);
  });
});

describe("taskEnvironment", () => {
  it("the ids Peloton's examples echo, and each port with an env name", () => {
    expect(
      taskEnvironment("job-7", 3, "job-7-3-2", [
        { name: "http", envName: "HTTP_PORT", number: 31002 },
        { name: "admin", number: 9090 },
      ]),
    ).toEqual({
      PELOTON_JOB_ID: "job-7",
      PELOTON_INSTANCE_ID: "3",
      PELOTON_TASK_ID: "job-7-3-2",
      HTTP_PORT: "31002",
    });
  });
});
