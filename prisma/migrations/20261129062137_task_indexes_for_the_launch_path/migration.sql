-- Issue 20: fewer index writes on the launch path (see model Task in schema.prisma).
-- The partial index at the end is not in schema.prisma: Prisma leaves partial
-- indexes it is not told of alone.

-- DropIndex
DROP INDEX "task_events_at_idx";

-- DropIndex
DROP INDEX "tasks_reason_job_id_idx";

-- DropIndex
DROP INDEX "tasks_state_priority_created_at_idx";

-- DropIndex
DROP INDEX "tasks_state_queued_at_idx";

-- CreateIndex
CREATE INDEX "tasks_work_queue_idx" ON "tasks"("state", "queued_at") WHERE (state = ANY (ARRAY['INITIALIZED'::"TaskState", 'PENDING'::"TaskState", 'READY'::"TaskState", 'PLACING'::"TaskState", 'PLACED'::"TaskState", 'LAUNCHING'::"TaskState", 'LAUNCHED'::"TaskState", 'STARTING'::"TaskState", 'KILLING'::"TaskState", 'PREEMPTING'::"TaskState"]));
