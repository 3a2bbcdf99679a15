/**
 * The preemptions page's state lives in the URL, so a view can be shared as
 * a link: `/preemptions?pool=%2Fweb&side=victim&kind=INTER_POOL&since=24h&open=42`.
 * The filters use the API's own names and codec (`@peloton/api/schemas`),
 * so the CSV link and the CLI select the same rows.
 */
import {
  type PreemptionFiltersInput,
  preemptionFiltersFromQuery,
  preemptionFiltersToQuery,
} from "@peloton/api/schemas";
import type { PreemptionListInput } from "@/lib/api-types";

export const PAGE_SIZE = 50;

/**
 * Flat, so that two quick edits (a pool, then its side) merge into the
 * latest URL state field by field (`useUrlState`) instead of one replacing
 * the other's filters.
 */
export interface PreemptionsQuery extends PreemptionFiltersInput {
  /** The page after this keyset position; null for the newest. */
  cursor: string | null;
  /** The preemption whose details are open. */
  open: string | null;
}

type Params = { get(name: string): string | null };

export function readPreemptionsQuery(params: Params): PreemptionsQuery {
  return {
    ...preemptionFiltersFromQuery(params),
    cursor: params.get("cursor"),
    open: params.get("open"),
  };
}

export function writePreemptionsQuery(q: PreemptionsQuery): string {
  const p = preemptionFiltersToQuery(q);
  if (q.cursor) p.set("cursor", q.cursor);
  if (q.open) p.set("open", q.open);
  const text = p.toString();
  return text ? `?${text}` : "";
}

/** Only the filters (what the list, the counts and the export select by). */
export function filtersOf(q: PreemptionsQuery): PreemptionFiltersInput {
  const { cursor: _cursor, open: _open, ...filters } = q;
  return filters;
}

/** The same filters as a query string for the CSV export. */
export function csvHref(filters: PreemptionFiltersInput): string {
  const text = preemptionFiltersToQuery(filters).toString();
  return `/api/preemptions.csv${text ? `?${text}` : ""}`;
}

export function listInput(q: PreemptionsQuery): PreemptionListInput {
  return { ...filtersOf(q), limit: PAGE_SIZE, cursor: q.cursor };
}

/** Every filter cleared: the whole history. */
export const NO_FILTERS = {
  pool: undefined,
  side: "either",
  subtree: false,
  job: undefined,
  instance: undefined,
  task: undefined,
  kind: undefined,
  since: undefined,
  until: undefined,
} satisfies Partial<PreemptionFiltersInput>;

/** Whether any filter narrows the list (the empty state says different things). */
export function isFiltered(f: PreemptionFiltersInput): boolean {
  return Boolean(f.pool || f.job || f.task || f.kind || f.since || f.until);
}
