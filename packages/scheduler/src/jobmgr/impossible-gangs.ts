/**
 * At submit and scale: would any gang of these instances never run, whatever
 * else runs (the engine's `whyNeverFits`: a task above every host, the gang
 * above the cluster, the pool's limit, or non-preemptible above its
 * reservation)? Such a job is refused with the numbers rather than stored to
 * wait forever (issue 14). Admission asks the same each round, for gangs that
 * become impossible later (a host gone, a limit lowered).
 */
import {
  gangsOf,
  type JobConfig,
  type NeverFitCause,
  RESOURCE_KINDS,
  type Resources,
  ROOT_PATH,
  whyNeverFits,
} from "@peloton/engine";
import type { PoolRecord, Repositories } from "@peloton/storage";
import { loadClusterShape } from "../resmgr/cluster-shape.ts";

/** The first gang that could never run: its instances (ascending) and why. */
export interface ImpossibleGang {
  readonly instances: readonly number[];
  readonly cause: NeverFitCause;
}

export async function firstImpossibleGang(
  tx: Pick<Repositories, "hosts">,
  config: JobConfig,
  pool: PoolRecord,
  pools: readonly PoolRecord[],
  instances: readonly number[],
): Promise<ImpossibleGang | null> {
  if (instances.length === 0) return null;
  const bounds = {
    limit: pathLimit(pool, pools),
    reservation: reservationOf(pool),
    cluster: await loadClusterShape(tx),
  };
  for (const gang of gangsOf(config, representatives(config, instances))) {
    const cause = whyNeverFits({ ...gang, tasks: gang.instances.length }, bounds);
    if (cause) return { instances: gang.instances, cause };
  }
  return null;
}

/**
 * The instances whose gangs differ: those that may gang (below
 * `minimumRunningInstances`), those with an override, and the first of the
 * rest (they share the default config). A job of 100,000 instances is judged
 * by a handful.
 */
function representatives(config: JobConfig, instances: readonly number[]): number[] {
  const m = config.sla.minimumRunningInstances;
  const out: number[] = [];
  let plainSeen = false;
  for (const i of instances) {
    if (i < m || config.instanceConfig[String(i)] !== undefined) out.push(i);
    else if (!plainSeen) {
      plainSeen = true;
      out.push(i);
    }
  }
  return out;
}

/** Per kind, the lowest limit of the pool and its ancestors (the root record sets none). */
function pathLimit(pool: PoolRecord, pools: readonly PoolRecord[]): Resources {
  const byId = new Map(pools.map((p) => [p.id, p]));
  const limit: Resources = { cpu: Infinity, gpu: Infinity, memory: Infinity, disk: Infinity };
  const seen = new Set<string>();
  for (
    let p: PoolRecord | undefined = pool;
    p && p.path !== ROOT_PATH && !seen.has(p.id);
    p = p.parentId ? byId.get(p.parentId) : undefined
  ) {
    seen.add(p.id);
    for (const kind of RESOURCE_KINDS) limit[kind] = Math.min(limit[kind], p.resources[kind].limit);
  }
  return limit;
}

function reservationOf(pool: PoolRecord): Resources {
  const r = pool.resources;
  return {
    cpu: r.cpu.reservation,
    gpu: r.gpu.reservation,
    memory: r.memory.reservation,
    disk: r.disk.reservation,
  };
}
