-- Issue 20: one index fewer per event row (see model TaskEvent in schema.prisma).
-- Every read of task_events goes by task or by job; the index on the id alone
-- served none. The key is now (task_id, id), which also serves the reads by
-- task that the dropped (task_id, id) index served. The key is swapped in one
-- ALTER TABLE statement, so the table is never without one.
-- DropIndex
DROP INDEX "task_events_task_id_id_idx";

-- AlterTable
ALTER TABLE "task_events" DROP CONSTRAINT "task_events_pkey",
ADD CONSTRAINT "task_events_pkey" PRIMARY KEY ("task_id", "id");
