-- DropIndex
DROP INDEX "task_events_job_id_instance_id_id_idx";

-- CreateIndex
CREATE INDEX "task_events_job_id_id_idx" ON "task_events"("job_id", "id");
