import { formatResource, type Kind } from "@/lib/format";

export interface BarNumbers {
  reservation: number;
  limit: number;
  entitlement: number;
  allocation: number;
  demand: number;
  share?: number;
}

/** A limit far beyond everything else would squash the bar; past this factor it is only named. */
const LIMIT_ON_SCALE = 1.5;

/** The bar's full width in the kind's unit, and whether the limit is drawn on it. */
export function barScale(n: BarNumbers): { max: number; limitShown: boolean } {
  const used = Math.max(n.entitlement, n.reservation, n.allocation + n.demand);
  if (used === 0) return { max: n.limit, limitShown: n.limit > 0 };
  const limitShown = n.limit > 0 && n.limit <= used * LIMIT_ON_SCALE;
  return { max: limitShown ? Math.max(used, n.limit) : used, limitShown };
}

const pct = (v: number, max: number) => (max > 0 ? Math.min(100, Math.max(0, (v / max) * 100)) : 0);

/** Every number the bar draws, with units, for the tooltip and screen readers. */
export function describeBar(kind: Kind, n: BarNumbers): string {
  const r = (v: number) => formatResource(kind, v);
  return [
    `allocation ${r(n.allocation)} of entitlement ${r(n.entitlement)}`,
    `reservation ${r(n.reservation)}`,
    `limit ${r(n.limit)}`,
    `demand ${r(n.demand)}`,
    ...(n.share === undefined ? [] : [`share ${n.share}`]),
  ].join("; ");
}

/**
 * One pool's kind at a glance: what it holds (solid) and waits for (hatched)
 * against what it may use now (the band with its edge: its entitlement), with ticks
 * at its reservation and, when on scale, its limit. Allocation beyond the
 * entitlement turns the fill to the warning colour.
 */
export function ResourceBar({
  kind,
  numbers: n,
  className = "",
}: {
  kind: Kind;
  numbers: BarNumbers;
  className?: string;
}) {
  const { max, limitShown } = barScale(n);
  const over = n.allocation > n.entitlement + 1e-9;
  const alloc = pct(n.allocation, max);
  const demand = Math.min(100 - alloc, pct(n.demand, max));
  const label = describeBar(kind, n);
  return (
    <div
      role="img"
      aria-label={`${kind}: ${label}`}
      title={label.replaceAll("; ", "\n")}
      data-kind={kind}
      data-testid="resource-bar"
      data-allocation={n.allocation}
      data-entitlement={n.entitlement}
      data-reservation={n.reservation}
      className={`relative h-2.5 w-full overflow-hidden rounded-sm bg-bar-track ${className}`}
    >
      <div
        className="absolute inset-y-0 left-0 bg-entitlement-band"
        style={{ width: `${pct(n.entitlement, max)}%` }}
      />
      <div
        className={`absolute inset-y-0 left-0 ${over ? "bg-warn" : "bg-allocation"}`}
        style={{ width: `${alloc}%` }}
      />
      {n.entitlement > 0 && (
        // The entitlement's edge stays visible over the demand's hatching.
        <div
          className="absolute inset-y-0 w-0.5 -translate-x-full bg-entitlement"
          style={{ left: `${pct(n.entitlement, max)}%` }}
        />
      )}
      {demand > 0 && (
        <div
          className="bar-demand absolute inset-y-0"
          style={{ left: `${alloc}%`, width: `${demand}%` }}
        />
      )}
      {n.reservation > 0 && (
        <div
          className="absolute inset-y-0 w-0.5 -translate-x-1/2 bg-fg/80"
          style={{ left: `${pct(n.reservation, max)}%` }}
        />
      )}
      {limitShown && (
        <div
          className="absolute inset-y-0 w-0.5 -translate-x-full bg-bad/80"
          style={{ left: `${pct(n.limit, max)}%` }}
        />
      )}
    </div>
  );
}

/** The legend every page with bars shows once. */
export function ResourceBarLegend() {
  const item = (swatch: string, text: string) => (
    <span className="flex items-center gap-1.5">
      <span aria-hidden className={`inline-block h-2.5 w-4 rounded-sm ${swatch}`} />
      {text}
    </span>
  );
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted" data-testid="bar-legend">
      {item("bg-allocation", "allocation")}
      {item("bar-demand", "demand (waiting)")}
      <span className="flex items-center gap-1.5">
        <span
          aria-hidden
          className="inline-block h-2.5 w-4 rounded-sm border-r-2 border-entitlement bg-entitlement-band"
        />
        entitlement
      </span>
      {item("bg-warn", "allocation over entitlement")}
      <span className="flex items-center gap-1.5">
        <span aria-hidden className="inline-block h-2.5 w-0.5 bg-fg/80" /> reservation
      </span>
      <span className="flex items-center gap-1.5">
        <span aria-hidden className="inline-block h-2.5 w-0.5 bg-bad/80" /> limit
      </span>
    </div>
  );
}
