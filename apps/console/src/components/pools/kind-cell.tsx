import { ResourceBar } from "@/components/ui/resource-bar";
import { formatResource, formatResourcePair, isUnusedKind, type Kind } from "@/lib/format";

export interface KindNumbers {
  reservation: number;
  limit: number;
  share: number;
  entitlement: number;
  allocation: number;
  demand: number;
}

/** One pool and kind in the tree: the bar, what it holds of what it may use, and its settings. */
export function KindCell({ kind, n }: { kind: Kind; n: KindNumbers }) {
  if (isUnusedKind(n))
    return (
      <span className="text-muted" title="Not used: limit 0" data-testid={`kind-${kind}`}>
        —
      </span>
    );
  return (
    <div className="min-w-44 space-y-1 whitespace-nowrap" data-testid={`kind-${kind}`}>
      <ResourceBar kind={kind} numbers={n} />
      <p className="text-xs tabular-nums">
        <span data-testid="allocation-of-entitlement">
          {formatResourcePair(kind, n.allocation, n.entitlement)}
        </span>
        {n.demand > 0 && (
          <span className="text-warn"> +{formatResource(kind, n.demand)} waiting</span>
        )}
      </p>
      <p className="text-xs tabular-nums text-muted" data-testid="settings">
        res / lim {formatResourcePair(kind, n.reservation, n.limit)} · share {n.share}
      </p>
    </div>
  );
}
