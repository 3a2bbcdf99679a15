/**
 * Parsed job configs by job id, read once per config version. The loops need
 * a job's config for every decision about its tasks (gangs, constraints,
 * ports, restart policy, the command to launch); configs only change with a
 * new config version, so a cache keyed on it is always right.
 */
import type { JobConfig } from "@peloton/engine";
import type { StorageGateway } from "@peloton/storage";

export class JobConfigs {
  private readonly byId = new Map<string, { version: number; config: JobConfig }>();

  constructor(private readonly gateway: Pick<StorageGateway, "jobs">) {}

  /** The configs of these jobs (those that exist), reading only what is not cached. */
  async get(ids: Iterable<string>): Promise<Map<string, JobConfig>> {
    const wanted = [...new Set(ids)];
    const missing = wanted.filter((id) => !this.byId.has(id));
    for (const row of await this.gateway.jobs.configs(missing)) {
      // Stored as the job config schema's output: it is a JobConfig.
      this.byId.set(row.id, { version: row.version, config: row.config as JobConfig });
    }
    const out = new Map<string, JobConfig>();
    for (const id of wanted) {
      const hit = this.byId.get(id);
      if (hit) out.set(id, hit.config);
    }
    return out;
  }

  async one(id: string): Promise<JobConfig | undefined> {
    return (await this.get([id])).get(id);
  }

  /** Forget a job (deleted, or its config changed). */
  forget(id: string): void {
    this.byId.delete(id);
  }
}
