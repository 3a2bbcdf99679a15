import { Notice } from "@/components/ui/notice";
import type { PoolTree } from "@/lib/api-types";
import { formatResource } from "@/lib/format";
import { DISPLAY_KINDS } from "@/lib/pools";

/**
 * What the root has to divide. Without hosts it is nothing, and the page must
 * say so: the entitlements shown are then only the reserved parts pools ask
 * for, which no host can provide yet.
 */
export function ClusterCapacity({ cluster }: { cluster: PoolTree["cluster"] }) {
  if (cluster.hosts === 0)
    return (
      <Notice tone="warn" title="No hosts registered: capacity is 0" testId="no-capacity">
        There is nothing to divide among pools yet, so no pool can borrow. A pool is still entitled
        to the part of its reservation its own tasks ask for, but no host can run them. Capacity
        appears as soon as Mesos agents register with the scheduler.
      </Notice>
    );
  return (
    <p className="text-muted" data-testid="cluster-capacity">
      The cluster: {DISPLAY_KINDS.map((k) => formatResource(k, cluster.capacity[k])).join(" · ")} on{" "}
      {cluster.hosts} host{cluster.hosts === 1 ? "" : "s"} (up or draining), divided among the pools
      below.
    </p>
  );
}
