-- CreateEnum
CREATE TYPE "HealthState" AS ENUM ('HEALTH_UNKNOWN', 'HEALTHY', 'UNHEALTHY', 'DISABLED');

-- AlterTable
ALTER TABLE "task_events" ADD COLUMN     "health" "HealthState";

-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "health" "HealthState" NOT NULL DEFAULT 'DISABLED',
ADD COLUMN     "health_changed_at" TIMESTAMPTZ(3),
ADD COLUMN     "health_message" TEXT,
ADD COLUMN     "health_run_id" INTEGER;
