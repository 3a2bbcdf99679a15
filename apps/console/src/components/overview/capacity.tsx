import type { OverviewSummary } from "@/lib/api-types";
import { formatResourcePair, KIND_LABEL, type Kind, percent } from "@/lib/format";

const KINDS: Kind[] = ["cpu", "memory", "disk", "gpu"];

/** Capacity against allocation per kind. */
export function Capacity({ summary }: { summary: OverviewSummary }) {
  return (
    <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4" data-testid="capacity">
      {KINDS.map((k) => {
        const total = summary.capacity[k];
        const used = summary.allocation[k];
        const pct = percent(used, total);
        return (
          <div key={k} data-kind={k}>
            <dt className="flex justify-between text-muted">
              <span>{KIND_LABEL[k]}</span>
              <span className="tabular-nums">{total > 0 ? `${Math.round(pct)}%` : "—"}</span>
            </dt>
            <dd>
              <div className="mt-1 h-2 overflow-hidden rounded-full bg-bar-track" aria-hidden>
                <div className="h-full rounded-full bg-allocation" style={{ width: `${pct}%` }} />
              </div>
              <p className="mt-1 tabular-nums">
                {/* Both in the larger one's unit: "0 / 640 GB", never "0 MB of 640 GB". */}
                {formatResourcePair(k, used, total)} <span className="text-muted">allocated</span>
              </p>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
