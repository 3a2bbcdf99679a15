"use client";
import type { PoolFacts } from "@peloton/api/policy";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";

/** The root: no owning team, so only admins create pools directly under it. */
export const ROOT_FACTS: PoolFacts = { path: "/", owningTeam: "", ldapGroups: [] };

/** A pool's facts for the policy, from anything that carries them (PoolView, PoolDetail, PoolRow). */
export function factsOf(pool: {
  path: string;
  owningTeam: string;
  ldapGroups: readonly string[];
}): PoolFacts {
  return { path: pool.path, owningTeam: pool.owningTeam, ldapGroups: pool.ldapGroups };
}

/**
 * The facts of the pool at `path` (who owns it, who may submit to it), read
 * from the pool tree that the pool pages load anyway (cached). Null while
 * loading, or when the pool is gone.
 */
export function usePoolFacts(path: string | undefined): PoolFacts | null {
  const trpc = useTRPC();
  const tree = useQuery(trpc.pools.tree.queryOptions(undefined, { enabled: path !== undefined }));
  if (path === undefined) return null;
  if (path === "/") return ROOT_FACTS;
  const pool = tree.data?.pools.find((p) => p.path === path);
  return pool ? factsOf(pool) : null;
}

/**
 * Facts of every pool by path, for lists (the jobs table's bulk actions);
 * `enabled: false` reads nothing (the palette, until it is opened).
 */
export function usePoolFactsByPath(enabled = true): ReadonlyMap<string, PoolFacts> | null {
  const trpc = useTRPC();
  const tree = useQuery(trpc.pools.tree.queryOptions(undefined, { enabled }));
  if (!tree.data) return null;
  return new Map(tree.data.pools.map((p) => [p.path, factsOf(p)]));
}
