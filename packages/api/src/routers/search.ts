/**
 * The command palette's search (console Ctrl-K): jobs by name, id prefix,
 * owner or label; a task by its cluster task id or as <job>/<instance>;
 * pools, hosts and volumes. Each hit carries what its actions need (a job's
 * version, state and pool, a host's state), so the console can offer only
 * what the signed-in person may do, decided by the same policy as the API.
 * What the text means is read once (schemas/search.ts); every look-up is an
 * indexed one (storage search-reads.ts).
 */
import type { GoalState, HostState, JobState, JobType, TaskState } from "@peloton/engine";
import type { JobHitRecord, TaskHitRecord } from "@peloton/storage";
import type { SignedInContext } from "../auth/authorize.ts";
import { protectedProcedure } from "../auth/authorize.ts";
import { poolHref } from "../schemas/pools.ts";
import { mergeHitGroups, parseSearch, searchInput, uuidPrefixRange } from "../schemas/search.ts";
import { router } from "../trpc.ts";

export { searchInput };

/** What a hit is, with the facts its actions need. */
export type SearchTarget =
  | {
      type: "job";
      id: string;
      name: string;
      state: JobState;
      goalState: GoalState;
      jobType: JobType;
      version: number;
      poolPath: string;
      instanceCount: number;
    }
  | {
      type: "task";
      jobId: string;
      jobName: string;
      instance: number;
      state: TaskState;
      poolPath: string;
    }
  | { type: "pool"; path: string }
  | { type: "host"; hostname: string; state: HostState }
  | { type: "volume"; id: string; jobId: string; instance: number };

export interface SearchHit {
  kind: SearchTarget["type"];
  label: string;
  detail: string;
  href: string;
  target: SearchTarget;
}

const shortId = (id: string) => id.slice(0, 8);

function jobHit(j: JobHitRecord): SearchHit {
  return {
    kind: "job",
    label: j.name,
    detail: `job ${shortId(j.id)} · ${j.state} · ${j.owner || "no owner"} · ${j.poolPath}`,
    href: `/jobs/${j.id}`,
    target: {
      type: "job",
      id: j.id,
      name: j.name,
      state: j.state,
      goalState: j.goalState,
      jobType: j.type,
      version: j.version,
      poolPath: j.poolPath,
      instanceCount: j.instanceCount,
    },
  };
}

function taskHit(t: TaskHitRecord): SearchHit {
  return {
    kind: "task",
    label: `${t.jobName}/${t.instanceId}`,
    detail: `task · ${t.state}${t.mesosTaskId ? ` · ${t.mesosTaskId}` : ""}`,
    href: `/jobs/${t.jobId}/tasks/${t.instanceId}`,
    target: {
      type: "task",
      jobId: t.jobId,
      jobName: t.jobName,
      instance: t.instanceId,
      state: t.state,
      poolPath: t.poolPath,
    },
  };
}

/** Jobs a free text may name: by id prefix first (exact), then by name and as an owner. */
async function jobsForText(
  ctx: SignedInContext,
  text: string,
  idRange: { low: string; high: string } | null,
  limit: number,
): Promise<JobHitRecord[]> {
  const reads = ctx.gateway.searchReads;
  const [byId, byName, byOwner] = await Promise.all([
    idRange ? reads.jobsByIdRange(idRange.low, idRange.high, limit) : [],
    reads.jobsByName(text, limit),
    /\s/.test(text) ? [] : reads.jobsByOwner(text, limit),
  ]);
  const seen = new Set<string>();
  return [...byId, ...byName, ...byOwner].filter((j) => !seen.has(j.id) && seen.add(j.id));
}

export const searchRouter = router({
  query: protectedProcedure
    .input(searchInput)
    .query(async ({ ctx, input }): Promise<SearchHit[]> => {
      const intent = parseSearch(input.q);
      const reads = ctx.gateway.searchReads;
      switch (intent.kind) {
        case "owner":
          return (await reads.jobsByOwner(intent.owner, input.limit)).map(jobHit);
        case "label":
          return (await reads.jobsByLabel(intent.key, intent.value, input.limit)).map(jobHit);
        case "clusterTask": {
          // The current run's id, else an earlier run of that instance.
          const task =
            (await reads.taskByMesosId(intent.mesosTaskId)) ??
            (await reads.taskByInstance(intent.jobId, intent.instance));
          return task ? [taskHit(task)] : [];
        }
        case "instance": {
          // The job by a part of its name, or by its id or the id's start.
          const jobs = await jobsForText(ctx, intent.job, uuidPrefixRange(intent.job), input.limit);
          const tasks = await Promise.all(
            jobs
              .filter((j) => intent.instance < j.instanceCount)
              .map((j) => reads.taskByInstance(j.id, intent.instance)),
          );
          return tasks.flatMap((t) => (t ? [taskHit(t)] : []));
        }
        case "text": {
          const [jobs, pools, hosts, volumes] = await Promise.all([
            jobsForText(ctx, intent.text, intent.idRange, input.limit),
            ctx.gateway.pools.search(intent.text, input.limit),
            ctx.gateway.hosts.search(intent.text, input.limit),
            reads.volumesByIdPrefix(intent.text, input.limit),
          ]);
          return mergeHitGroups<SearchHit>(
            [
              jobs.map(jobHit),
              pools.map((p) => ({
                kind: "pool" as const,
                label: p.path,
                detail: p.owningTeam ? `pool · ${p.owningTeam}` : "pool",
                href: poolHref(p.path),
                target: { type: "pool" as const, path: p.path },
              })),
              hosts.map((h) => ({
                kind: "host" as const,
                label: h.hostname,
                detail: `host · ${h.state}`,
                href: `/hosts/${encodeURIComponent(h.hostname)}`,
                target: { type: "host" as const, hostname: h.hostname, state: h.state },
              })),
              volumes.map((v) => ({
                kind: "volume" as const,
                label: v.id,
                detail: `volume · ${v.jobName}/${v.instanceId} on ${v.hostname} · ${v.state}`,
                href: `/jobs/${v.jobId}/tasks/${v.instanceId}`,
                target: {
                  type: "volume" as const,
                  id: v.id,
                  jobId: v.jobId,
                  instance: v.instanceId,
                },
              })),
            ],
            input.limit,
          );
        }
      }
    }),
});
