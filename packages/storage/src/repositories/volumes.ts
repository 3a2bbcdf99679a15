/**
 * Persistent volumes of stateful instances (one per instance): pinned to a
 * host when the instance is first placed, CREATED once the launch that
 * creates it went out; every later run of the instance mounts it there.
 * DELETED once the host manager destroyed it in the cluster, after its
 * instance was deleted (job deleted, or scaled down); an instance scaled up
 * again pins a fresh one.
 */
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import { changesRepository } from "./changes.ts";

export interface VolumePin {
  id: string;
  jobId: string;
  instanceId: number;
  taskId: string;
  hostname: string;
  agentId: string;
  sizeMb: number;
  containerPath: string;
}

/** The volume's instance (task row `t`) is deleted and its run is over: no one wants the volume. */
const INSTANCE_DELETED = Prisma.sql`(t.goal_state = 'DELETED' AND t.state = 'DELETED')`;

export function volumesRepository(db: DbOrTx) {
  return {
    /** Records where new volumes live (state INITIALIZED until the launch creates them). */
    async pin(volumes: readonly VolumePin[]): Promise<void> {
      if (volumes.length === 0) return;
      await db.$executeRaw`
        INSERT INTO volumes (id, job_id, instance_id, task_id, hostname, agent_id, size_mb,
                             container_path, state, updated_at)
        SELECT u.id, u.job_id, u.instance_id, u.task_id, u.hostname, u.agent_id, u.size_mb,
               u.container_path, 'INITIALIZED', now()
        FROM unnest(${volumes.map((v) => v.id)}::text[], ${volumes.map((v) => v.jobId)}::uuid[],
                    ${volumes.map((v) => v.instanceId)}::int[], ${volumes.map((v) => v.taskId)}::uuid[],
                    ${volumes.map((v) => v.hostname)}::text[], ${volumes.map((v) => v.agentId)}::text[],
                    ${volumes.map((v) => v.sizeMb)}::float8[],
                    ${volumes.map((v) => v.containerPath)}::text[])
          AS u(id, job_id, instance_id, task_id, hostname, agent_id, size_mb, container_path)
        ON CONFLICT (job_id, instance_id) DO UPDATE SET
          hostname = EXCLUDED.hostname, agent_id = EXCLUDED.agent_id, task_id = EXCLUDED.task_id,
          size_mb = EXCLUDED.size_mb, container_path = EXCLUDED.container_path,
          state = 'INITIALIZED', updated_at = now()
        WHERE volumes.state IN ('INITIALIZED', 'DELETED')`;
      await changesRepository(db).announce({
        topic: "volumes",
        keys: volumes.map((v) => v.id),
      });
    },

    async markCreated(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.$executeRaw`
        UPDATE volumes SET state = 'CREATED', updated_at = now()
        WHERE id = ANY(${[...ids]}::text[]) AND state = 'INITIALIZED'`;
      await changesRepository(db).announce({ topic: "volumes", keys: [...ids] });
    },

    /**
     * Which of these persistence ids the table knows, and whether any
     * instance still wants each: not when its instance is deleted (its run
     * over, its goal DELETED), nor when it was destroyed already and the
     * cluster still reports it. Ids the table does not know are not answered.
     */
    async standing(ids: readonly string[]): Promise<{ id: string; unwanted: boolean }[]> {
      if (ids.length === 0) return [];
      return db.$queryRaw<{ id: string; unwanted: boolean }[]>`
        SELECT v.id, (v.state = 'DELETED' OR t.id IS NULL OR ${INSTANCE_DELETED}) AS unwanted
        FROM volumes v LEFT JOIN tasks t ON t.id = v.task_id
        WHERE v.id = ANY(${[...ids]}::text[])`;
    },

    /**
     * The cluster destroyed them. Guarded by the same rule as `standing`: a
     * volume whose instance came back meanwhile keeps its row.
     */
    async markDeleted(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.$executeRaw`
        UPDATE volumes v SET state = 'DELETED', updated_at = now()
        WHERE v.id = ANY(${[...ids]}::text[]) AND v.state <> 'DELETED'
          AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = v.task_id AND NOT ${INSTANCE_DELETED})`;
      await changesRepository(db).announce({ topic: "volumes", keys: [...ids] });
    },
  };
}
