/**
 * Small seeded clusters where everything happens: scarce resources, every
 * host state, GPUs, exclusive hosts, ports (static and dynamic), tasks
 * already on hosts, constraints of every type, gangs, volumes and previous
 * hosts. For the cross-check against the reference placement.
 */
import type { Constraint, PlacementHost, PlacementTask, Resources } from "../../src/index.ts";

export function randomPlacement(
  random: () => number,
  opts: { hosts: number; tasks: number; gangs: boolean },
): { hosts: PlacementHost[]; tasks: PlacementTask[] } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const chance = (p: number) => random() < p;
  const zones = ["a", "b", "c"];
  const apps = ["web", "db", "cache"];
  const names = Array.from({ length: opts.hosts }, (_, i) => `h${String(i).padStart(3, "0")}`);

  const hosts = names.map((hostname, i): PlacementHost => {
    const total: Resources = {
      cpu: pick([2, 4, 8]),
      gpu: chance(0.15) ? 2 : 0,
      memory: pick([1024, 4096]),
      disk: 1000,
    };
    const attributes: Record<string, string> = chance(0.9) ? { zone: pick(zones) } : {};
    if (chance(0.1)) attributes["peloton/exclusive"] = "ml";
    return {
      hostname,
      agentId: `agent-${i}`,
      state: chance(0.08) ? "DRAINING" : chance(0.05) ? "DOWN" : "UP",
      total,
      free: chance(0.3) ? { ...total, cpu: Math.floor(total.cpu / 2) } : { ...total },
      attributes,
      freePorts: chance(0.1) ? [] : [{ begin: 8000, end: 8000 + Math.floor(random() * 4) }],
      taskLabels: chance(0.3) ? { app: { [pick(apps)]: 1 + Math.floor(random() * 2) } } : {},
      jobTasks: chance(0.3) ? { [`job${Math.floor(random() * 5)}`]: 1 } : {},
    };
  });

  const constraintOf = (): Constraint | undefined => {
    const label = (kind: "HOST" | "TASK"): Constraint =>
      kind === "HOST"
        ? {
            type: "LABEL_CONSTRAINT",
            kind,
            label: { key: "zone", value: pick(zones) },
            condition: "EQUAL",
            requirement: 1,
          }
        : {
            type: "LABEL_CONSTRAINT",
            kind,
            label: { key: "app", value: pick(apps) },
            condition: pick(["LESS_THAN", "EQUAL", "GREATER_THAN"] as const),
            requirement: Math.floor(random() * 3),
          };
    const roll = random();
    if (roll < 0.4) return undefined;
    if (roll < 0.55) return label("HOST");
    if (roll < 0.7) return label("TASK");
    if (roll < 0.8) return { type: "AND_CONSTRAINT", constraints: [label("HOST"), label("TASK")] };
    if (roll < 0.88) return { type: "OR_CONSTRAINT", constraints: [label("HOST"), label("HOST")] };
    if (roll < 0.95)
      return { type: "NOT_CONSTRAINT", constraint: label(pick(["HOST", "TASK"] as const)) };
    return {
      type: "LABEL_CONSTRAINT",
      kind: "HOST",
      label: { key: "peloton/exclusive", value: "ml" },
      condition: "EQUAL",
      requirement: 1,
    };
  };

  const tasks: PlacementTask[] = [];
  for (let j = 0; tasks.length < opts.tasks; j++) {
    const jobId = `job${j % 7}`;
    const resources: Resources = {
      cpu: pick([0.5, 1, 2, 3]),
      gpu: chance(0.1) ? 1 : 0,
      memory: pick([256, 512, 1024]),
      disk: pick([0, 100]),
    };
    const ports = {
      dynamic: pick([0, 0, 1, 2]),
      static: chance(0.1) ? [8000 + Math.floor(random() * 3)] : [],
    };
    const constraint = constraintOf();
    const size = opts.gangs && chance(0.2) ? 2 + Math.floor(random() * 3) : 1;
    const strategy = chance(0.4) ? ("SPREAD_JOB" as const) : ("PACK_HOST" as const);
    for (let i = 0; i < size && tasks.length < opts.tasks; i++) {
      const id = `t${tasks.length}`;
      tasks.push({
        taskId: id,
        jobId,
        instance: i,
        ...(size > 1 ? { gangId: `g${j}` } : {}),
        resources,
        ports,
        ...(constraint ? { constraint } : {}),
        strategy,
        labels: chance(0.6) ? [{ key: "app", value: pick(apps) }] : [],
        ...(chance(0.05) ? { volumeHost: pick([...names, "gone"]) } : {}),
        ...(chance(0.15) ? { previousHost: pick(names) } : {}),
      });
    }
  }
  return { hosts, tasks };
}
