-- AlterTable
ALTER TABLE "hosts" ADD COLUMN     "agent_url" TEXT,
ADD COLUMN     "state_since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE INDEX "hosts_attributes_idx" ON "hosts" USING GIN ("attributes" jsonb_path_ops);
