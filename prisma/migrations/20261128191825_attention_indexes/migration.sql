-- CreateIndex
CREATE INDEX "tasks_reason_job_id_idx" ON "tasks"("reason", "job_id");

-- CreateIndex
CREATE INDEX "tasks_state_queued_at_idx" ON "tasks"("state", "queued_at");
