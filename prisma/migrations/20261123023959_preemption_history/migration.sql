/*
  Warnings:

  - Added the required column `victim_job_name` to the `preemptions` table without a default value. This is not possible if the table is not empty.
  - Added the required column `victim_state_after` to the `preemptions` table without a default value. This is not possible if the table is not empty.

*/
-- DropIndex
DROP INDEX "preemptions_beneficiary_pool_id_at_id_idx";

-- DropIndex
DROP INDEX "preemptions_victim_pool_id_at_id_idx";

-- DropIndex
DROP INDEX "preemptions_victim_task_id_at_idx";

-- AlterTable
ALTER TABLE "preemptions" ADD COLUMN     "beneficiary_gang_id" TEXT,
ADD COLUMN     "beneficiary_job_name" TEXT,
ADD COLUMN     "level" TEXT,
ADD COLUMN     "pool_keys" TEXT[],
ADD COLUMN     "rescheduled_run_id" INTEGER,
ADD COLUMN     "victim_job_name" TEXT NOT NULL,
ADD COLUMN     "victim_state_after" "TaskState" NOT NULL;

-- CreateTable
CREATE TABLE "preemption_counts" (
    "period_seconds" INTEGER NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "pool" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "preemption_counts_pkey" PRIMARY KEY ("period_seconds","start","pool","side")
);

-- CreateIndex
CREATE INDEX "preemption_counts_pool_period_seconds_start_idx" ON "preemption_counts"("pool", "period_seconds", "start");

-- CreateIndex
CREATE INDEX "preemptions_victim_pool_path_at_id_idx" ON "preemptions"("victim_pool_path", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "preemptions_beneficiary_pool_path_at_id_idx" ON "preemptions"("beneficiary_pool_path", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "preemptions_victim_task_id_at_id_idx" ON "preemptions"("victim_task_id", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "preemptions_pool_keys_idx" ON "preemptions" USING GIN ("pool_keys");
