"use client";
import { useQuery } from "@tanstack/react-query";
import { UserRound } from "lucide-react";
import { useTRPC } from "@/lib/trpc";

/** Who is acting is always visible. */
export function ActorBadge() {
  const trpc = useTRPC();
  const { data } = useQuery(
    trpc.system.whoami.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }),
  );
  return (
    <span className="flex items-center gap-1.5 text-muted" title="Acting as">
      <UserRound className="size-4" aria-hidden />
      <span data-testid="actor">{data?.displayName ?? "…"}</span>
    </span>
  );
}
