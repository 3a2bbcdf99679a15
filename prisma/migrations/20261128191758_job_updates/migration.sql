/*
  Warnings:

  - You are about to drop the column `config_yaml` on the `job_updates` table. All the data in the column will be lost.
  - You are about to drop the column `instances_total` on the `job_updates` table. All the data in the column will be lost.
  - You are about to drop the column `options` on the `job_updates` table. All the data in the column will be lost.
  - The `instances_done` column on the `job_updates` table would be dropped and recreated. This will lead to data loss if there is data in the column.
  - The `instances_failed` column on the `job_updates` table would be dropped and recreated. This will lead to data loss if there is data in the column.
  - Added the required column `from_instance_count` to the `job_updates` table without a default value. This is not possible if the table is not empty.
  - Added the required column `to_instance_count` to the `job_updates` table without a default value. This is not possible if the table is not empty.

*/
-- The table was never written; its new required columns need it empty.
DELETE FROM "job_updates";

-- CreateEnum
CREATE TYPE "UpdateKind" AS ENUM ('UPDATE', 'RESTART', 'START', 'STOP');

-- DropIndex
DROP INDEX "job_updates_job_id_created_at_idx";

-- AlterTable
ALTER TABLE "job_updates" DROP COLUMN "config_yaml",
DROP COLUMN "instances_total",
DROP COLUMN "options",
ADD COLUMN     "batch_percentage" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "completed_at" TIMESTAMPTZ(3),
ADD COLUMN     "from_instance_count" INTEGER NOT NULL,
ADD COLUMN     "in_place" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "instances_added" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "instances_current" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "instances_removed" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "instances_updated" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "kind" "UpdateKind" NOT NULL DEFAULT 'UPDATE',
ADD COLUMN     "max_failure_instances" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "max_instance_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "previous_state" "UpdateState",
ADD COLUMN     "rollback_on_failure" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "start_paused" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "start_tasks" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "stop_before_update" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "to_instance_count" INTEGER NOT NULL,
ALTER COLUMN "batch_size" DROP DEFAULT,
DROP COLUMN "instances_done",
ADD COLUMN     "instances_done" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
DROP COLUMN "instances_failed",
ADD COLUMN     "instances_failed" INTEGER[] DEFAULT ARRAY[]::INTEGER[];

-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "config_version" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "desired_config_version" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "job_update_events" (
    "id" BIGSERIAL NOT NULL,
    "update_id" UUID NOT NULL,
    "state" "UpdateState" NOT NULL,
    "message" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_update_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_config_versions" (
    "job_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "config_yaml" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT NOT NULL,

    CONSTRAINT "job_config_versions_pkey" PRIMARY KEY ("job_id","version")
);

-- CreateIndex
CREATE INDEX "job_update_events_update_id_at_id_idx" ON "job_update_events"("update_id", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "job_updates_job_id_created_at_id_idx" ON "job_updates"("job_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "job_update_events" ADD CONSTRAINT "job_update_events_update_id_fkey" FOREIGN KEY ("update_id") REFERENCES "job_updates"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_config_versions" ADD CONSTRAINT "job_config_versions_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every existing job's configuration becomes its version (1 for all so far).
INSERT INTO "job_config_versions" ("job_id", "version", "config_yaml", "config", "created_at", "created_by")
SELECT "id", "config_version", "config_yaml", "config", "created_at", "submitted_by" FROM "jobs";

UPDATE "tasks" t SET "config_version" = j."config_version", "desired_config_version" = j."config_version"
  FROM "jobs" j WHERE j."id" = t."job_id" AND j."config_version" <> 1;

SELECT peloton_attach_lease_fences();
