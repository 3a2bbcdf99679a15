-- DropIndex
DROP INDEX "task_events_at_idx";

-- CreateIndex
CREATE INDEX "task_events_at_idx" ON "task_events" USING BRIN ("at");
