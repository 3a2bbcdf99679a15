/**
 * Every configuration a job ever had (job_config_versions): written with the
 * job (version 1) and by each update; read to launch a run with the version
 * it was given, and by the console to diff any two.
 */
import type { DbOrTx } from "../tx.ts";

export interface ConfigVersionSummary {
  version: number;
  createdAt: Date;
  createdBy: string;
}

export interface ConfigVersionRecord extends ConfigVersionSummary {
  configYaml: string;
  config: unknown;
}

/** Versions listed at most (a job updated more often than this shows its latest). */
const LIST_LIMIT = 1_000;

export function jobConfigVersionsRepository(db: DbOrTx) {
  return {
    async insert(v: {
      jobId: string;
      version: number;
      configYaml: string;
      config: unknown;
      createdBy: string;
    }): Promise<void> {
      await db.$executeRaw`
        INSERT INTO job_config_versions (job_id, version, config_yaml, config, created_by)
        VALUES (${v.jobId}::uuid, ${v.version}, ${v.configYaml},
                ${JSON.stringify(v.config)}::jsonb, ${v.createdBy})`;
    },

    /** A job's versions, newest first. */
    async list(jobId: string): Promise<ConfigVersionSummary[]> {
      return db.$queryRaw<ConfigVersionSummary[]>`
        SELECT version, created_at AS "createdAt", created_by AS "createdBy"
        FROM job_config_versions WHERE job_id = ${jobId}::uuid
        ORDER BY version DESC LIMIT ${LIST_LIMIT}`;
    },

    async get(jobId: string, version: number): Promise<ConfigVersionRecord | null> {
      const rows = await db.$queryRaw<ConfigVersionRecord[]>`
        SELECT version, created_at AS "createdAt", created_by AS "createdBy",
               config_yaml AS "configYaml", config
        FROM job_config_versions WHERE job_id = ${jobId}::uuid AND version = ${version}`;
      return rows[0] ?? null;
    },

    /** Parsed configs of these (job, version) pairs (the loops cache them: they never change). */
    async configs(
      keys: readonly { jobId: string; version: number }[],
    ): Promise<{ jobId: string; version: number; config: unknown }[]> {
      if (keys.length === 0) return [];
      return db.$queryRaw`
        SELECT v.job_id::text AS "jobId", v.version, v.config
        FROM job_config_versions v
        JOIN unnest(${keys.map((k) => k.jobId)}::uuid[], ${keys.map((k) => k.version)}::int[])
          AS k(job_id, version) ON k.job_id = v.job_id AND k.version = v.version`;
    },

    /** The newest version number of a job (0 when it has none). */
    async latest(jobId: string): Promise<number> {
      const rows = await db.$queryRaw<{ v: number | null }[]>`
        SELECT max(version) AS v FROM job_config_versions WHERE job_id = ${jobId}::uuid`;
      return rows[0]?.v ?? 0;
    },
  };
}

export type JobConfigVersionsRepository = ReturnType<typeof jobConfigVersionsRepository>;
