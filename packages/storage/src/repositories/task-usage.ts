/**
 * What tasks ask for and hold, per job and kind of task, from `task_usage`
 * (the triggers on `tasks` keep it; schema.prisma's TaskUsage says how):
 * the pool usage reads (tasks.usageByPool, admissionReads.heldByPool,
 * preemptorReads.usage, the overview's) sum a few rows per job instead of
 * every task, and the leader's compaction keeps those rows few.
 */
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";

const KEY = Prisma.raw("job_id, state, revocable, controller, preemptible, priority");

/**
 * Each key's totals, as a table to read from (`FROM ${TASK_USAGE} u`):
 * job_id, state, revocable, controller, preemptible, priority, then tasks
 * and cpu, gpu, mem, disk as float8 in whole units. Keys with no task left
 * are not in it.
 */
export const TASK_USAGE = Prisma.sql`(
  SELECT ${KEY}, sum(tasks)::int AS tasks,
         (sum(cpu_milli) / 1000.0)::float8 AS cpu, (sum(gpu_milli) / 1000.0)::float8 AS gpu,
         (sum(mem_milli) / 1000.0)::float8 AS mem, (sum(disk_milli) / 1000.0)::float8 AS disk
  FROM task_usage GROUP BY ${KEY} HAVING sum(tasks) <> 0)`;

export function taskUsageRepository(db: DbOrTx) {
  return {
    /**
     * Folds each key's rows into one, and drops the rows of keys that total
     * nothing and of jobs deleted since; the number of rows removed. Rows
     * written meanwhile are not in this statement's view and stay as they
     * are, so a key's total is the same before, during and after.
     */
    async compact(): Promise<number> {
      const [row] = await db.$queryRaw<{ removed: number }[]>`
        WITH folded AS (
          SELECT ${KEY} FROM task_usage u GROUP BY ${KEY}
          HAVING count(*) > 1
              OR (sum(tasks) = 0 AND sum(cpu_milli) = 0 AND sum(gpu_milli) = 0
                  AND sum(mem_milli) = 0 AND sum(disk_milli) = 0)
              OR NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = u.job_id)
        ), gone AS (
          DELETE FROM task_usage u USING folded f
          WHERE (u.job_id, u.state, u.revocable, u.controller, u.preemptible, u.priority)
              = (f.job_id, f.state, f.revocable, f.controller, f.preemptible, f.priority)
          RETURNING u.*
        ), kept AS (
          INSERT INTO task_usage (${KEY}, tasks, cpu_milli, gpu_milli, mem_milli, disk_milli)
          SELECT ${KEY}, sum(tasks), sum(cpu_milli), sum(gpu_milli), sum(mem_milli), sum(disk_milli)
          FROM gone g
          WHERE EXISTS (SELECT 1 FROM jobs j WHERE j.id = g.job_id)
          GROUP BY ${KEY}
          HAVING sum(tasks) <> 0 OR sum(cpu_milli) <> 0 OR sum(gpu_milli) <> 0
              OR sum(mem_milli) <> 0 OR sum(disk_milli) <> 0
          RETURNING 1
        )
        SELECT ((SELECT count(*) FROM gone) - (SELECT count(*) FROM kept))::int AS removed`;
      return row?.removed ?? 0;
    },
  };
}
