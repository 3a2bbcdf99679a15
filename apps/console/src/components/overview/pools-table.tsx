import Link from "next/link";
import { KindCell } from "@/components/pools/kind-cell";
import type { OverviewSummary } from "@/lib/api-types";
import { KIND_LABEL, type Kind } from "@/lib/format";
import { poolHref } from "@/lib/pools";

const KINDS: Kind[] = ["cpu", "memory", "disk", "gpu"];

/**
 * The pools with their usage, not only their settings: per kind what each
 * holds against its entitlement (the bar also marks reservation and limit),
 * what waits, and the settings below; indented by depth, each opening its page.
 */
export function PoolsTable({ pools }: { pools: OverviewSummary["poolList"] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left" data-testid="pools-table">
        <thead className="text-xs uppercase tracking-wide text-muted">
          <tr className="border-b border-border">
            <th className="py-1.5 pr-4 font-medium">Pool</th>
            <th className="py-1.5 pr-4 font-medium">Team</th>
            {KINDS.map((k) => (
              <th key={k} className="py-1.5 pr-4 font-medium">
                {KIND_LABEL[k]} allocated / entitled
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {pools.map((p) => (
            <tr
              key={p.path}
              data-pool={p.path}
              className="border-b border-border align-top last:border-0 hover:bg-surface-2/60"
            >
              <td className="py-2 pr-4" style={{ paddingLeft: `${(p.depth - 1) * 1.25}rem` }}>
                <Link
                  href={poolHref(p.path)}
                  className="font-medium hover:text-accent hover:underline"
                >
                  {p.name}
                </Link>
                <span className="ml-2 font-mono text-xs text-muted">{p.path}</span>
              </td>
              <td className="py-2 pr-4 text-muted">{p.owningTeam || "—"}</td>
              {KINDS.map((k) => (
                <td key={k} className="py-2 pr-4">
                  <KindCell kind={k} n={p.resources[k]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
