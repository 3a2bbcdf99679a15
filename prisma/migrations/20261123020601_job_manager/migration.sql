-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "desired_run" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "not_before" TIMESTAMPTZ(3),
ADD COLUMN     "pinned_host" TEXT,
ADD COLUMN     "previous_host" TEXT,
ADD COLUMN     "queued_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "tasks_job_id_hostname_instance_id_idx" ON "tasks"("job_id", "hostname", "instance_id");

-- CreateIndex
CREATE INDEX "tasks_job_id_started_at_instance_id_idx" ON "tasks"("job_id", "started_at", "instance_id");
