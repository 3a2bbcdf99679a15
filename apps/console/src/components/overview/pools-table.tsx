import Link from "next/link";
import type { OverviewSummary } from "@/lib/api-types";
import { formatResource, type Kind } from "@/lib/format";
import { poolHref } from "@/lib/pools";

const KINDS: Kind[] = ["cpu", "memory", "gpu"];

/** The configured pools: reservation / limit / share per kind, indented by depth; each opens its page. */
export function PoolsTable({ pools }: { pools: OverviewSummary["poolList"] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left" data-testid="pools-table">
        <thead className="text-xs uppercase tracking-wide text-muted">
          <tr className="border-b border-border">
            <th className="py-1.5 pr-4 font-medium">Pool</th>
            <th className="py-1.5 pr-4 font-medium">Team</th>
            {KINDS.map((k) => (
              <th key={k} className="py-1.5 pr-4 text-right font-medium">
                {k} reserved / limit
              </th>
            ))}
            <th className="py-1.5 text-right font-medium">cpu share</th>
          </tr>
        </thead>
        <tbody>
          {pools.map((p) => (
            <tr
              key={p.path}
              data-pool={p.path}
              className="border-b border-border last:border-0 hover:bg-surface-2/60"
            >
              <td className="py-1.5 pr-4" style={{ paddingLeft: `${(p.depth - 1) * 1.25}rem` }}>
                <Link
                  href={poolHref(p.path)}
                  className="font-medium hover:text-accent hover:underline"
                >
                  {p.name}
                </Link>
                <span className="ml-2 font-mono text-xs text-muted">{p.path}</span>
              </td>
              <td className="py-1.5 pr-4 text-muted">{p.owningTeam || "—"}</td>
              {KINDS.map((k) => (
                <td key={k} className="py-1.5 pr-4 text-right tabular-nums">
                  {formatResource(k, p.resources[k].reservation)}
                  <span className="text-muted"> / {formatResource(k, p.resources[k].limit)}</span>
                </td>
              ))}
              <td className="py-1.5 text-right tabular-nums">{p.resources.cpu.share}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
