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
import { tasksRepository } from "./tasks.ts";

const sum = (values: {
  cpu: number | null;
  gpu: number | null;
  memMb: number | null;
  diskMb: number | null;
}) =>
  ({
    cpu: values.cpu ?? 0,
    gpu: values.gpu ?? 0,
    memory: values.memMb ?? 0,
    disk: values.diskMb ?? 0,
  }) satisfies Record<ResourceKind, number>;

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
          db.task.aggregate({
            where: { state: { in: [...ALLOCATING_TASK_STATES] } },
            _sum: { cpu: true, gpu: true, memMb: true, diskMb: true },
          }),
          // Persistent volumes on hosts that count as capacity: the cluster reports
          // their disk apart from the free disk, so they are added to both sides.
          db.$queryRaw<{ mb: number }[]>`
            SELECT coalesce(sum(v.size_mb), 0)::float8 AS mb
            FROM volumes v JOIN hosts h ON h.hostname = v.hostname
            WHERE v.state = 'CREATED'
              AND h.state::text = ANY(${[...CAPACITY_HOST_STATES]}::text[])`,
        ]);
      const volumeMb = volumes[0]?.mb ?? 0;
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
        allocation: { ...sum(allocation._sum), disk: (allocation._sum.diskMb ?? 0) + volumeMb },
      };
    },
  };
}
