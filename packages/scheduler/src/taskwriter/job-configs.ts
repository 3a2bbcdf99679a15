/**
 * Parsed job configs, cached. Two views: a job's current config (the version
 * it is headed for: restart policy, gangs, SLA) and the config a run was
 * given (job_config_versions: what placement places and launches). A
 * (job, version) config never changes, so that cache is always right; the
 * current one is checked against the job's config version on every read (one
 * light query), because an update moves it from another process.
 */
import type { JobConfig } from "@peloton/engine";
import type { StorageGateway } from "@peloton/storage";

/** The key of a run's config: job id and config version. */
export function configKey(jobId: string, version: number): string {
  return `${jobId}@${version}`;
}

export class JobConfigs {
  private readonly byKey = new Map<string, JobConfig>();
  private readonly currentVersion = new Map<string, number>();

  constructor(private readonly gateway: Pick<StorageGateway, "jobs" | "configVersions">) {}

  /** The current configs of these jobs (those that exist), reading only what changed. */
  async get(ids: Iterable<string>): Promise<Map<string, JobConfig>> {
    const wanted = [...new Set(ids)];
    const out = new Map<string, JobConfig>();
    if (wanted.length === 0) return out;
    const versions = await this.gateway.jobs.configVersionsOf(wanted);
    const stale = versions.filter((v) => !this.byKey.has(configKey(v.id, v.version)));
    if (stale.length > 0)
      // Stored as the job config schema's output: it is a JobConfig.
      for (const row of await this.gateway.jobs.configs(stale.map((v) => v.id)))
        this.byKey.set(configKey(row.id, row.version), row.config as JobConfig);
    for (const v of versions) {
      this.currentVersion.set(v.id, v.version);
      const hit = this.byKey.get(configKey(v.id, v.version));
      if (hit) out.set(v.id, hit);
    }
    return out;
  }

  async one(id: string): Promise<JobConfig | undefined> {
    return (await this.get([id])).get(id);
  }

  /** The configs runs are launched with, keyed by `configKey(job, version)`. */
  async forRuns(
    runs: Iterable<{ jobId: string; configVersion: number }>,
  ): Promise<Map<string, JobConfig>> {
    const wanted = new Map<string, { jobId: string; version: number }>();
    for (const r of runs)
      wanted.set(configKey(r.jobId, r.configVersion), { jobId: r.jobId, version: r.configVersion });
    const missing = [...wanted.entries()].filter(([k]) => !this.byKey.has(k)).map(([, v]) => v);
    for (const row of await this.gateway.configVersions.configs(missing))
      this.byKey.set(configKey(row.jobId, row.version), row.config as JobConfig);
    const out = new Map<string, JobConfig>();
    for (const k of wanted.keys()) {
      const hit = this.byKey.get(k);
      if (hit) out.set(k, hit);
    }
    return out;
  }

  /** Forget a job (deleted). */
  forget(id: string): void {
    for (const k of this.byKey.keys()) if (k.startsWith(`${id}@`)) this.byKey.delete(k);
    this.currentVersion.delete(id);
  }
}
