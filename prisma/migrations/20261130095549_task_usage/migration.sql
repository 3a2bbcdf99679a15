-- CreateTable
CREATE TABLE "task_usage" (
    "id" BIGSERIAL NOT NULL,
    "job_id" UUID NOT NULL,
    "state" "TaskState" NOT NULL,
    "revocable" BOOLEAN NOT NULL,
    "controller" BOOLEAN NOT NULL,
    "preemptible" BOOLEAN NOT NULL,
    "priority" INTEGER NOT NULL,
    "tasks" INTEGER NOT NULL,
    "cpu_milli" BIGINT NOT NULL,
    "gpu_milli" BIGINT NOT NULL,
    "mem_milli" BIGINT NOT NULL,
    "disk_milli" BIGINT NOT NULL,

    CONSTRAINT "task_usage_pkey" PRIMARY KEY ("id")
);

-- Issue 20: what tasks ask for and hold, per job and kind of task, kept by
-- statement-level triggers on tasks (schema.prisma, model TaskUsage, says
-- why). A statement adds one row per key it changed: its new rows count in
-- (+), its old rows out (−), keys whose change nets to nothing add none.
-- Resources go in thousandths, each task's value rounded on its own, so a
-- task takes out exactly what it brought in whatever statements group it.
-- Its cost is the transition tables' capture and one grouping of them:
-- ~1 ms per 1,000 updated rows, measured with EXPLAIN ANALYZE.
CREATE FUNCTION peloton_task_usage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO task_usage (job_id, state, revocable, controller, preemptible, priority,
                            tasks, cpu_milli, gpu_milli, mem_milli, disk_milli)
    SELECT job_id, state, revocable, controller, preemptible, priority, count(*)::int,
           sum(round(cpu * 1000)::bigint), sum(round(gpu * 1000)::bigint),
           sum(round(mem_mb * 1000)::bigint), sum(round(disk_mb * 1000)::bigint)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO task_usage (job_id, state, revocable, controller, preemptible, priority,
                            tasks, cpu_milli, gpu_milli, mem_milli, disk_milli)
    SELECT job_id, state, revocable, controller, preemptible, priority, -count(*)::int,
           -sum(round(cpu * 1000)::bigint), -sum(round(gpu * 1000)::bigint),
           -sum(round(mem_mb * 1000)::bigint), -sum(round(disk_mb * 1000)::bigint)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6;
  ELSE
    INSERT INTO task_usage (job_id, state, revocable, controller, preemptible, priority,
                            tasks, cpu_milli, gpu_milli, mem_milli, disk_milli)
    SELECT job_id, state, revocable, controller, preemptible, priority, sum(n)::int,
           sum(cpu), sum(gpu), sum(mem), sum(disk)
    FROM (
      SELECT job_id, state, revocable, controller, preemptible, priority, count(*) AS n,
             sum(round(cpu * 1000)::bigint) AS cpu, sum(round(gpu * 1000)::bigint) AS gpu,
             sum(round(mem_mb * 1000)::bigint) AS mem, sum(round(disk_mb * 1000)::bigint) AS disk
      FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6
      UNION ALL
      SELECT job_id, state, revocable, controller, preemptible, priority, -count(*),
             -sum(round(cpu * 1000)::bigint), -sum(round(gpu * 1000)::bigint),
             -sum(round(mem_mb * 1000)::bigint), -sum(round(disk_mb * 1000)::bigint)
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6
    ) d
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(n) <> 0 OR sum(cpu) <> 0 OR sum(gpu) <> 0 OR sum(mem) <> 0 OR sum(disk) <> 0;
  END IF;
  RETURN NULL;
END
$$;

-- A trigger with transition tables serves one event, so three.
CREATE TRIGGER peloton_task_usage_insert AFTER INSERT ON tasks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION peloton_task_usage();
CREATE TRIGGER peloton_task_usage_update AFTER UPDATE ON tasks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION peloton_task_usage();
CREATE TRIGGER peloton_task_usage_delete AFTER DELETE ON tasks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION peloton_task_usage();

-- The tasks already stored.
INSERT INTO task_usage (job_id, state, revocable, controller, preemptible, priority,
                        tasks, cpu_milli, gpu_milli, mem_milli, disk_milli)
SELECT job_id, state, revocable, controller, preemptible, priority, count(*)::int,
       sum(round(cpu * 1000)::bigint), sum(round(gpu * 1000)::bigint),
       sum(round(mem_mb * 1000)::bigint), sum(round(disk_mb * 1000)::bigint)
FROM tasks GROUP BY 1, 2, 3, 4, 5, 6;

SELECT peloton_attach_lease_fences();
