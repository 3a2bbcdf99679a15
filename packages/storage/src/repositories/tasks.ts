import { ALLOCATING_TASK_STATES, type ResourceKind, type TaskState } from "@peloton/engine";
import { withArrayParameters } from "../direct-parameters.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { NewTask, PoolUsage } from "../records.ts";
import type { DbOrTx } from "../tx.ts";
import { TASK_USAGE } from "./task-usage.ts";

const zero = (): Record<ResourceKind, number> => ({ cpu: 0, gpu: 0, memory: 0, disk: 0 });

/** Tasks: one row per job instance (its current run). */
export function tasksRepository(db: DbOrTx) {
  return {
    /**
     * Inserts many tasks in one statement: one array parameter per column,
     * unnested server-side. This is the hot path when a big job is created
     * (libraries.md: never row-at-a-time inserts), and it keeps the statement
     * size independent of the batch size. The arrays go past Prisma's
     * parameter round trip (`withArrayParameters`).
     */
    async insertMany(tasks: readonly NewTask[]): Promise<number> {
      if (tasks.length === 0) return 0;
      const cols = {
        jobId: [] as string[],
        instanceId: [] as number[],
        state: [] as string[],
        goalState: [] as string[],
        priority: [] as number[],
        preemptible: [] as boolean[],
        revocable: [] as boolean[],
        controller: [] as boolean[],
        pinnedHost: [] as (string | null)[],
        cpu: [] as number[],
        memMb: [] as number[],
        diskMb: [] as number[],
        gpu: [] as number[],
        configVersion: [] as number[],
      };
      for (const t of tasks) {
        cols.jobId.push(t.jobId);
        cols.instanceId.push(t.instanceId);
        cols.state.push(t.state);
        cols.goalState.push(t.goalState);
        cols.priority.push(t.priority);
        cols.preemptible.push(t.preemptible);
        cols.revocable.push(t.revocable ?? false);
        cols.controller.push(t.controller ?? false);
        cols.pinnedHost.push(t.pinnedHost ?? null);
        cols.cpu.push(t.cpu);
        cols.memMb.push(t.memMb);
        cols.diskMb.push(t.diskMb);
        cols.gpu.push(t.gpu);
        cols.configVersion.push(t.configVersion ?? 1);
      }
      // One array per column, in the order of the unnest below. Ids in creation
      // order (peloton_uuid_v7, see its migration): a job's tasks and their
      // events go to the end of their keys, not to random places in them.
      return withArrayParameters(
        Object.values(cols),
        (p) => db.$executeRaw`
        INSERT INTO tasks (id, job_id, instance_id, state, goal_state, priority, preemptible,
                           revocable, controller, pinned_host, cpu, mem_mb, disk_mb, gpu,
                           config_version, desired_config_version, queued_at, updated_at)
        SELECT peloton_uuid_v7(), u.job_id, u.instance_id, u.state::"TaskState",
               u.goal_state::"GoalState", u.priority, u.preemptible, u.revocable, u.controller,
               u.pinned_host, u.cpu, u.mem_mb, u.disk_mb, u.gpu, u.config_version, u.config_version,
               CASE WHEN u.state = 'PENDING' THEN now() END, now()
        FROM unnest(${p[0]}::uuid[], ${p[1]}::int[], ${p[2]}::text[], ${p[3]}::text[],
                    ${p[4]}::int[], ${p[5]}::bool[], ${p[6]}::bool[], ${p[7]}::bool[],
                    ${p[8]}::text[], ${p[9]}::float8[], ${p[10]}::float8[], ${p[11]}::float8[],
                    ${p[12]}::float8[], ${p[13]}::int[])
          AS u(job_id, instance_id, state, goal_state, priority, preemptible, revocable, controller,
               pinned_host, cpu, mem_mb, disk_mb, gpu, config_version)`,
      );
    },

    /**
     * The first event of tasks just inserted: the job's listed instances, or
     * all of its tasks; one statement reading the new rows, however many.
     */
    async recordCreated(
      jobId: string,
      instances: readonly number[] | "all",
      event: { source: string; reason: string; message: string },
    ): Promise<number> {
      const which =
        instances === "all"
          ? Prisma.sql`TRUE`
          : Prisma.sql`t.instance_id = ANY(${[...instances]}::int[])`;
      return db.$executeRaw`
        INSERT INTO task_events (task_id, job_id, instance_id, run_id, previous_state, state,
                                 source, reason, message, at)
        SELECT t.id, t.job_id, t.instance_id, t.run_id, NULL, t.state, ${event.source},
               ${event.reason}, ${event.message}, t.created_at
        FROM tasks t WHERE t.job_id = ${jobId}::uuid AND ${which}`;
    },

    /**
     * Demand (PENDING tasks) and allocation (admitted through running) per
     * pool, split into non-revocable and revocable: the entitlement
     * calculator's inputs (from `task_usage`, not a scan of the tasks).
     */
    async usageByPool(): Promise<PoolUsage[]> {
      const rows = await db.$queryRaw<
        {
          pool_id: string;
          allocated: boolean;
          revocable: boolean;
          cpu: number;
          gpu: number;
          mem: number;
          disk: number;
        }[]
      >`
        SELECT j.pool_id::text AS pool_id, u.state <> 'PENDING' AS allocated, u.revocable,
               sum(u.cpu)::float8 AS cpu, sum(u.gpu)::float8 AS gpu,
               sum(u.mem)::float8 AS mem, sum(u.disk)::float8 AS disk
        FROM ${TASK_USAGE} u JOIN jobs j ON j.id = u.job_id
        WHERE u.state::text = ANY(${["PENDING", ...ALLOCATING_TASK_STATES]}::text[])
        GROUP BY 1, 2, 3`;
      const byPool = new Map<string, PoolUsage>();
      for (const r of rows) {
        let u = byPool.get(r.pool_id);
        if (!u) {
          u = {
            poolId: r.pool_id,
            demand: zero(),
            allocation: zero(),
            slackDemand: zero(),
            slackAllocation: zero(),
          };
          byPool.set(r.pool_id, u);
        }
        const target = r.allocated
          ? r.revocable
            ? u.slackAllocation
            : u.allocation
          : r.revocable
            ? u.slackDemand
            : u.demand;
        target.cpu += r.cpu;
        target.gpu += r.gpu;
        target.memory += r.mem;
        target.disk += r.disk;
      }
      return [...byPool.values()];
    },

    /** How many tasks are in each state (from `task_usage`, not a scan of the tasks). */
    async countByState(): Promise<Partial<Record<TaskState, number>>> {
      const rows = await db.$queryRaw<{ state: TaskState; n: number }[]>`
        SELECT u.state::text AS state, sum(u.tasks)::int AS n FROM ${TASK_USAGE} u
        JOIN jobs j ON j.id = u.job_id GROUP BY 1`;
      return Object.fromEntries(rows.map((r) => [r.state, r.n]));
    },
  };
}

export type TasksRepository = ReturnType<typeof tasksRepository>;
