-- AlterEnum
ALTER TYPE "HostState" ADD VALUE 'LOST';

-- AlterTable
ALTER TABLE "hosts" ADD COLUMN     "goal_state" "HostState" NOT NULL DEFAULT 'UP';

-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "restart_reason" TEXT;

-- CreateTable
CREATE TABLE "host_maintenance_events" (
    "id" BIGSERIAL NOT NULL,
    "hostname" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "from_state" "HostState",
    "to_state" "HostState",
    "actor" TEXT NOT NULL,
    "via" TEXT NOT NULL DEFAULT '',
    "reason" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "host_maintenance_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "host_maintenance_events_hostname_at_id_idx" ON "host_maintenance_events"("hostname", "at" DESC, "id" DESC);

-- The new table carries the leader's write fence like every other table.
SELECT peloton_attach_lease_fences();
