-- CreateEnum
CREATE TYPE "UserRole" AS ENUM ('ADMIN', 'OPERATOR', 'TEAM_LEAD', 'VIEWER');

-- CreateEnum
CREATE TYPE "ResourceKind" AS ENUM ('cpu', 'memory', 'disk', 'gpu');

-- CreateEnum
CREATE TYPE "ReservationType" AS ENUM ('ELASTIC', 'STATIC');

-- CreateEnum
CREATE TYPE "ChangeAction" AS ENUM ('CREATE', 'UPDATE', 'DELETE');

-- CreateEnum
CREATE TYPE "JobType" AS ENUM ('BATCH', 'SERVICE', 'DAEMON', 'STATEFUL');

-- CreateEnum
CREATE TYPE "JobState" AS ENUM ('UNKNOWN', 'INITIALIZED', 'PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'KILLED', 'KILLING', 'UNINITIALIZED', 'DELETED');

-- CreateEnum
CREATE TYPE "GoalState" AS ENUM ('RUNNING', 'SUCCEEDED', 'KILLED', 'DELETED');

-- CreateEnum
CREATE TYPE "TaskState" AS ENUM ('UNKNOWN', 'INITIALIZED', 'PENDING', 'READY', 'PLACING', 'PLACED', 'LAUNCHING', 'LAUNCHED', 'STARTING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'LOST', 'PREEMPTING', 'KILLING', 'KILLED', 'DELETED');

-- CreateEnum
CREATE TYPE "HostState" AS ENUM ('UP', 'DRAINING', 'DRAINED', 'DOWN');

-- CreateEnum
CREATE TYPE "VolumeState" AS ENUM ('INITIALIZED', 'CREATED', 'DELETED');

-- CreateEnum
CREATE TYPE "PreemptionKind" AS ENUM ('INTER_POOL', 'INTRA_POOL');

-- CreateEnum
CREATE TYPE "UpdateState" AS ENUM ('INITIALIZED', 'ROLLING_FORWARD', 'PAUSED', 'SUCCEEDED', 'ABORTED', 'FAILED', 'ROLLING_BACKWARD', 'ROLLED_BACK');

-- CreateTable
CREATE TABLE "teams" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "teams_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "login" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "role" "UserRole" NOT NULL DEFAULT 'VIEWER',
    "team_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "resource_pools" (
    "id" UUID NOT NULL,
    "seq" SERIAL NOT NULL,
    "parent_id" UUID,
    "path" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "owning_team" TEXT NOT NULL DEFAULT '',
    "ldap_groups" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "description" TEXT NOT NULL DEFAULT '',
    "policy" INTEGER NOT NULL DEFAULT 1,
    "controller_limit_max_percent" DOUBLE PRECISION,
    "slack_limit_max_percent" DOUBLE PRECISION NOT NULL DEFAULT 20,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_by" TEXT NOT NULL DEFAULT 'system',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "resource_pools_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pool_resources" (
    "pool_id" UUID NOT NULL,
    "kind" "ResourceKind" NOT NULL,
    "reservation" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "limit" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "share" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "type" "ReservationType" NOT NULL DEFAULT 'ELASTIC',

    CONSTRAINT "pool_resources_pkey" PRIMARY KEY ("pool_id","kind")
);

-- CreateTable
CREATE TABLE "pool_changes" (
    "id" BIGSERIAL NOT NULL,
    "pool_id" UUID NOT NULL,
    "pool_path" TEXT NOT NULL,
    "action" "ChangeAction" NOT NULL,
    "actor" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "version" INTEGER NOT NULL,
    "before" JSONB,
    "after" JSONB,

    CONSTRAINT "pool_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "entitlement_samples" (
    "id" BIGSERIAL NOT NULL,
    "pool_id" UUID NOT NULL,
    "kind" "ResourceKind" NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "entitlement" DOUBLE PRECISION NOT NULL,
    "slack_entitlement" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "allocation" DOUBLE PRECISION NOT NULL,
    "demand" DOUBLE PRECISION NOT NULL,
    "reservation" DOUBLE PRECISION NOT NULL,
    "limit" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "entitlement_samples_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "type" "JobType" NOT NULL,
    "pool_id" UUID NOT NULL,
    "owner" TEXT NOT NULL,
    "owning_team" TEXT NOT NULL DEFAULT '',
    "labels" JSONB NOT NULL DEFAULT '[]',
    "priority" INTEGER NOT NULL DEFAULT 0,
    "preemptible" BOOLEAN NOT NULL DEFAULT true,
    "revocable" BOOLEAN NOT NULL DEFAULT false,
    "config_yaml" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "config_version" INTEGER NOT NULL DEFAULT 1,
    "state" "JobState" NOT NULL DEFAULT 'INITIALIZED',
    "goal_state" "GoalState" NOT NULL DEFAULT 'SUCCEEDED',
    "instance_count" INTEGER NOT NULL,
    "task_stats" JSONB NOT NULL DEFAULT '{}',
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tasks" (
    "id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "instance_id" INTEGER NOT NULL,
    "run_id" INTEGER NOT NULL DEFAULT 1,
    "mesos_task_id" TEXT,
    "state" "TaskState" NOT NULL DEFAULT 'INITIALIZED',
    "goal_state" "GoalState" NOT NULL DEFAULT 'SUCCEEDED',
    "priority" INTEGER NOT NULL DEFAULT 0,
    "preemptible" BOOLEAN NOT NULL DEFAULT true,
    "revocable" BOOLEAN NOT NULL DEFAULT false,
    "controller" BOOLEAN NOT NULL DEFAULT false,
    "hostname" TEXT,
    "agent_id" TEXT,
    "ports" JSONB NOT NULL DEFAULT '{}',
    "cpu" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "mem_mb" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "disk_mb" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "gpu" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "reason" TEXT,
    "message" TEXT,
    "failure_count" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_events" (
    "id" BIGSERIAL NOT NULL,
    "task_id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "instance_id" INTEGER NOT NULL,
    "run_id" INTEGER NOT NULL,
    "mesos_task_id" TEXT,
    "previous_state" "TaskState",
    "state" "TaskState" NOT NULL,
    "source" TEXT NOT NULL,
    "reason" TEXT,
    "message" TEXT,
    "hostname" TEXT,
    "agent_id" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "hosts" (
    "hostname" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "cpu" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "mem_mb" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "disk_mb" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "gpu" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "ports" JSONB NOT NULL DEFAULT '[]',
    "state" "HostState" NOT NULL DEFAULT 'UP',
    "state_reason" TEXT,
    "registered_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "hosts_pkey" PRIMARY KEY ("hostname")
);

-- CreateTable
CREATE TABLE "volumes" (
    "id" TEXT NOT NULL,
    "job_id" UUID NOT NULL,
    "instance_id" INTEGER NOT NULL,
    "task_id" UUID,
    "hostname" TEXT NOT NULL,
    "agent_id" TEXT,
    "size_mb" DOUBLE PRECISION NOT NULL,
    "container_path" TEXT NOT NULL,
    "state" "VolumeState" NOT NULL DEFAULT 'INITIALIZED',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "volumes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mesos_frameworks" (
    "name" TEXT NOT NULL,
    "framework_id" TEXT NOT NULL,
    "master_url" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mesos_frameworks_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "scheduler_leases" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "acquired_at" TIMESTAMPTZ(3) NOT NULL,
    "renewed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "scheduler_leases_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "preemptions" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" "PreemptionKind" NOT NULL,
    "victim_task_id" UUID NOT NULL,
    "victim_job_id" UUID NOT NULL,
    "victim_instance_id" INTEGER NOT NULL,
    "victim_run_id" INTEGER NOT NULL,
    "victim_priority" INTEGER NOT NULL,
    "victim_state" "TaskState" NOT NULL,
    "victim_pool_id" UUID NOT NULL,
    "victim_pool_path" TEXT NOT NULL,
    "beneficiary_pool_id" UUID,
    "beneficiary_pool_path" TEXT,
    "beneficiary_task_id" UUID,
    "beneficiary_job_id" UUID,
    "beneficiary_instance_id" INTEGER,
    "beneficiary_priority" INTEGER,
    "reason" TEXT NOT NULL,
    "numbers" JSONB NOT NULL,
    "rescheduled_at" TIMESTAMPTZ(3),

    CONSTRAINT "preemptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_updates" (
    "id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "state" "UpdateState" NOT NULL DEFAULT 'INITIALIZED',
    "from_config_version" INTEGER NOT NULL,
    "to_config_version" INTEGER NOT NULL,
    "config_yaml" TEXT NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "batch_size" INTEGER NOT NULL DEFAULT 1,
    "instances_total" INTEGER NOT NULL,
    "instances_done" INTEGER NOT NULL DEFAULT 0,
    "instances_failed" INTEGER NOT NULL DEFAULT 0,
    "actor" TEXT NOT NULL,
    "message" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "job_updates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "request_id" TEXT,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "teams_name_key" ON "teams"("name");

-- CreateIndex
CREATE UNIQUE INDEX "users_login_key" ON "users"("login");

-- CreateIndex
CREATE INDEX "users_team_id_idx" ON "users"("team_id");

-- CreateIndex
CREATE UNIQUE INDEX "resource_pools_seq_key" ON "resource_pools"("seq");

-- CreateIndex
CREATE UNIQUE INDEX "resource_pools_path_key" ON "resource_pools"("path");

-- CreateIndex
CREATE UNIQUE INDEX "resource_pools_parent_id_name_key" ON "resource_pools"("parent_id", "name");

-- CreateIndex
CREATE INDEX "pool_changes_pool_id_at_id_idx" ON "pool_changes"("pool_id", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "pool_changes_pool_path_at_id_idx" ON "pool_changes"("pool_path", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "entitlement_samples_pool_id_kind_at_idx" ON "entitlement_samples"("pool_id", "kind", "at");

-- CreateIndex
CREATE INDEX "entitlement_samples_at_idx" ON "entitlement_samples"("at");

-- CreateIndex
CREATE INDEX "jobs_created_at_id_idx" ON "jobs"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "jobs_state_created_at_id_idx" ON "jobs"("state", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "jobs_pool_id_created_at_id_idx" ON "jobs"("pool_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "jobs_owner_created_at_id_idx" ON "jobs"("owner", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "jobs_type_created_at_id_idx" ON "jobs"("type", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "jobs_name_idx" ON "jobs"("name");

-- CreateIndex
CREATE INDEX "jobs_labels_idx" ON "jobs" USING GIN ("labels" jsonb_path_ops);

-- CreateIndex
CREATE UNIQUE INDEX "tasks_mesos_task_id_key" ON "tasks"("mesos_task_id");

-- CreateIndex
CREATE INDEX "tasks_job_id_state_instance_id_idx" ON "tasks"("job_id", "state", "instance_id");

-- CreateIndex
CREATE INDEX "tasks_state_priority_created_at_idx" ON "tasks"("state", "priority" DESC, "created_at");

-- CreateIndex
CREATE INDEX "tasks_hostname_state_idx" ON "tasks"("hostname", "state");

-- CreateIndex
CREATE UNIQUE INDEX "tasks_job_id_instance_id_key" ON "tasks"("job_id", "instance_id");

-- CreateIndex
CREATE INDEX "task_events_job_id_instance_id_id_idx" ON "task_events"("job_id", "instance_id", "id");

-- CreateIndex
CREATE INDEX "task_events_task_id_id_idx" ON "task_events"("task_id", "id");

-- CreateIndex
CREATE INDEX "task_events_at_idx" ON "task_events"("at");

-- CreateIndex
CREATE UNIQUE INDEX "hosts_agent_id_key" ON "hosts"("agent_id");

-- CreateIndex
CREATE INDEX "hosts_state_hostname_idx" ON "hosts"("state", "hostname");

-- CreateIndex
CREATE UNIQUE INDEX "volumes_task_id_key" ON "volumes"("task_id");

-- CreateIndex
CREATE INDEX "volumes_hostname_idx" ON "volumes"("hostname");

-- CreateIndex
CREATE INDEX "volumes_state_created_at_idx" ON "volumes"("state", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "volumes_job_id_instance_id_key" ON "volumes"("job_id", "instance_id");

-- CreateIndex
CREATE INDEX "preemptions_at_id_idx" ON "preemptions"("at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "preemptions_victim_pool_id_at_id_idx" ON "preemptions"("victim_pool_id", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "preemptions_beneficiary_pool_id_at_id_idx" ON "preemptions"("beneficiary_pool_id", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "preemptions_victim_job_id_at_id_idx" ON "preemptions"("victim_job_id", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "preemptions_victim_task_id_at_idx" ON "preemptions"("victim_task_id", "at" DESC);

-- CreateIndex
CREATE INDEX "preemptions_kind_at_id_idx" ON "preemptions"("kind", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "job_updates_job_id_created_at_idx" ON "job_updates"("job_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "job_updates_state_idx" ON "job_updates"("state");

-- CreateIndex
CREATE INDEX "audit_log_at_id_idx" ON "audit_log"("at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_log_actor_at_idx" ON "audit_log"("actor", "at" DESC);

-- CreateIndex
CREATE INDEX "audit_log_target_type_target_id_at_idx" ON "audit_log"("target_type", "target_id", "at" DESC);

-- CreateIndex
CREATE INDEX "audit_log_action_at_idx" ON "audit_log"("action", "at" DESC);

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "resource_pools" ADD CONSTRAINT "resource_pools_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "resource_pools"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pool_resources" ADD CONSTRAINT "pool_resources_pool_id_fkey" FOREIGN KEY ("pool_id") REFERENCES "resource_pools"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "entitlement_samples" ADD CONSTRAINT "entitlement_samples_pool_id_fkey" FOREIGN KEY ("pool_id") REFERENCES "resource_pools"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_pool_id_fkey" FOREIGN KEY ("pool_id") REFERENCES "resource_pools"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "volumes" ADD CONSTRAINT "volumes_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "volumes" ADD CONSTRAINT "volumes_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_updates" ADD CONSTRAINT "job_updates_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
