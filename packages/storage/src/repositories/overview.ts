import {
  ALLOCATING_TASK_STATES,
  CAPACITY_HOST_STATES,
  type HostState,
  type ResourceKind,
} from "@peloton/engine";
import type { ClusterSummary } from "../records.ts";
import type { DbOrTx } from "../tx.ts";
import { hostsRepository } from "./hosts.ts";
import { jobsRepository } from "./jobs.ts";
import { TASK_USAGE } from "./task-usage.ts";
import { tasksRepository } from "./tasks.ts";

/** The cluster overview's figures, each one aggregate query. */
export function overviewRepository(db: DbOrTx) {
  return {
    async clusterSummary(): Promise<ClusterSummary> {
      const [pools, jobsByState, tasksByState, hostGroups, capacity, allocation, volumes] =
        await Promise.all([
          db.resourcePool.count(),
          jobsRepository(db).countByState(),
          tasksRepository(db).countByState(),
          db.host.groupBy({ by: ["state"], _count: { _all: true } }),
          hostsRepository(db).capacity(),
          // What admitted tasks hold, from `task_usage` (not a scan of the tasks).
          db.$queryRaw<Record<ResourceKind, number>[]>`
            SELECT coalesce(sum(u.cpu), 0)::float8 AS cpu, coalesce(sum(u.gpu), 0)::float8 AS gpu,
                   coalesce(sum(u.mem), 0)::float8 AS memory, coalesce(sum(u.disk), 0)::float8 AS disk
            FROM ${TASK_USAGE} u JOIN jobs j ON j.id = u.job_id
            WHERE u.state::text = ANY(${[...ALLOCATING_TASK_STATES]}::text[])`,
          // Persistent volumes on hosts that count as capacity: the cluster reports
          // their disk apart from the free disk, so they are added to both sides.
          db.$queryRaw<{ mb: number }[]>`
            SELECT coalesce(sum(v.size_mb), 0)::float8 AS mb
            FROM volumes v JOIN hosts h ON h.hostname = v.hostname
            WHERE v.state = 'CREATED'
              AND h.state::text = ANY(${[...CAPACITY_HOST_STATES]}::text[])`,
        ]);
      const volumeMb = volumes[0]?.mb ?? 0;
      const held = allocation[0] ?? { cpu: 0, gpu: 0, memory: 0, disk: 0 };
      const total = (m: Partial<Record<string, number>>) =>
        Object.values(m).reduce<number>((a, b) => a + (b ?? 0), 0);
      const hostsByState: Partial<Record<HostState, number>> = Object.fromEntries(
        hostGroups.map((g) => [g.state, g._count._all]),
      );
      return {
        pools,
        jobs: total(jobsByState),
        jobsByState,
        tasks: total(tasksByState),
        tasksByState,
        hosts: total(hostsByState),
        hostsByState,
        capacity: { ...capacity.capacity, disk: capacity.capacity.disk + volumeMb },
        allocation: { ...held, disk: held.disk + volumeMb },
      };
    },
  };
}
