"use client";
import { useQuery } from "@tanstack/react-query";
import type { ExpandedState } from "@tanstack/react-table";
import { useState } from "react";
import { ROOT_FACTS } from "@/components/identity/use-pool-facts";
import { Card, EmptyState } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { ResourceBarLegend } from "@/components/ui/resource-bar";
import type { PoolTree } from "@/lib/api-types";
import { useTRPC } from "@/lib/trpc";
import { ClusterCapacity } from "./cluster-notice";
import { CreatePoolDialog } from "./create-pool-dialog";
import { initialExpanded, PoolTreeTable } from "./pool-tree-table";

/** `/pools`: the tree with what each pool is guaranteed, may borrow and uses, per kind. */
export function PoolsPage({ initial }: { initial: PoolTree }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.pools.tree.queryOptions(undefined, { initialData: initial }));
  const tree = query.data;
  const [expanded, setExpanded] = useState<ExpandedState>(() => initialExpanded(initial.pools));
  return (
    <div className="space-y-4">
      <PageHeader
        title="Resource pools"
        beside={<span className="text-muted">{tree.pools.length} below the root</span>}
        live={query}
        actions={
          <CreatePoolDialog
            parent={ROOT_FACTS}
            parentLimit={tree.cluster.capacity}
            label="New top-level pool"
          />
        }
      />
      <ClusterCapacity cluster={tree.cluster} />
      <Card title="Pools" action={<ResourceBarLegend />}>
        {tree.pools.length === 0 ? (
          <EmptyState title="No pools yet">
            Create one with “New top-level pool”, or from the command line:{" "}
            <code className="font-mono">peloton respool create /team team.yaml</code>.
          </EmptyState>
        ) : (
          <PoolTreeTable pools={tree.pools} expanded={expanded} onExpandedChange={setExpanded} />
        )}
      </Card>
      <p className="text-xs text-muted">
        Keyboard: ↑ ↓ move between pools, → ← open and close a pool&apos;s children, Enter opens the
        pool.
      </p>
    </div>
  );
}
