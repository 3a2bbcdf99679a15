-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "restart_requested_by" TEXT;
