import { boundedText, MAX_SEARCH_LENGTH } from "@peloton/engine";
import { z } from "zod";
import { protectedProcedure } from "../auth/authorize.ts";
import { poolHref } from "../schemas/pools.ts";
import { router } from "../trpc.ts";

export const searchInput = z.object({
  q: boundedText(MAX_SEARCH_LENGTH, {
    trim: true,
    min: 1,
    minMessage: "type something to search",
  }),
  limit: z.number().int().min(1).max(50).default(10),
});

export interface SearchHit {
  kind: "pool" | "host" | "job" | "task";
  label: string;
  detail: string;
  href: string;
}

/** `<job>/<instance>`: a job's id or part of its name, then an instance number (pool paths start with "/"). */
const TASK_REF = /^([^/\s][^/]*)\/(\d+)$/;

/** The header's search box: jump to a pool, a host, a job (by name or id) or a task (`<job>/<instance>`). */
export const searchRouter = router({
  query: protectedProcedure
    .input(searchInput)
    .query(async ({ ctx, input }): Promise<SearchHit[]> => {
      const task = TASK_REF.exec(input.q);
      if (task) {
        const instance = Number(task[2]);
        const jobs = await ctx.gateway.jobs.search(task[1]!, input.limit);
        return jobs
          .filter((j) => instance < j.instanceCount)
          .map((j) => ({
            kind: "task" as const,
            label: `${j.name}/${instance}`,
            detail: `task · job ${j.id.slice(0, 8)}`,
            href: `/jobs/${j.id}/tasks/${instance}`,
          }));
      }
      const [pools, hosts, jobs] = await Promise.all([
        ctx.gateway.pools.search(input.q, input.limit),
        ctx.gateway.hosts.search(input.q, input.limit),
        ctx.gateway.jobs.search(input.q, input.limit),
      ]);
      const hits: SearchHit[] = [
        ...pools.map((p) => ({
          kind: "pool" as const,
          label: p.path,
          detail: p.owningTeam ? `pool · ${p.owningTeam}` : "pool",
          href: poolHref(p.path),
        })),
        ...jobs.map((j) => ({
          kind: "job" as const,
          label: j.name,
          detail: `job · ${j.state}`,
          href: `/jobs/${j.id}`,
        })),
        ...hosts.map((h) => ({
          kind: "host" as const,
          label: h.hostname,
          detail: `host · ${h.state}`,
          href: `/hosts?q=${encodeURIComponent(h.hostname)}`,
        })),
      ];
      return hits.slice(0, input.limit);
    }),
});
