"use client";
import { useQuery } from "@tanstack/react-query";
import type { PoolRow } from "@/lib/api-types";
import { useTRPC } from "@/lib/trpc";
import { useHydrated } from "@/lib/use-hydrated";

/**
 * Every pool, for a filter that picks one; undefined while loading and
 * while the filter hydrates. The tree may already be cached by then (the
 * layout's palette or another page read it), and options the server did
 * not render would be a hydration error (#418).
 */
export function usePoolChoices(): readonly PoolRow[] | undefined {
  const trpc = useTRPC();
  const tree = useQuery(trpc.pools.tree.queryOptions(undefined, { staleTime: 60_000 }));
  const hydrated = useHydrated();
  return hydrated ? tree.data?.pools : undefined;
}
