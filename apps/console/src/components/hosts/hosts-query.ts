/**
 * The hosts page's state lives in the URL (filters, sort, page), so a view
 * can be shared as a link: `/hosts?state=DOWN,DRAINING&zone=us-east-1a&q=gpu&sort=cpu&order=desc`.
 */
import { HOST_STATES, type HostState } from "@peloton/api/schemas";
import type { HostListInput } from "@/lib/api-types";

export { HOST_STATES, type HostState };
export type SortKey = NonNullable<HostListInput["sort"]>;
export const SORT_KEYS = [
  "hostname",
  "state",
  "cpu",
  "memMb",
  "diskMb",
  "gpu",
  "tasks",
  "lastSeenAt",
] as const satisfies readonly SortKey[];

export const PAGE_SIZE = 100;

export interface HostsQuery {
  states: HostState[];
  zone: string;
  q: string;
  sort: SortKey;
  order: "asc" | "desc";
  cursor: string | null;
}

type Params = { get(name: string): string | null };

export function readHostsQuery(params: Params): HostsQuery {
  const states = (params.get("state") ?? "")
    .split(",")
    .filter((s): s is HostState => (HOST_STATES as readonly string[]).includes(s));
  const sort = params.get("sort");
  return {
    states,
    zone: params.get("zone") ?? "",
    q: params.get("q") ?? "",
    sort: (SORT_KEYS as readonly string[]).includes(sort ?? "") ? (sort as SortKey) : "hostname",
    order: params.get("order") === "desc" ? "desc" : "asc",
    cursor: params.get("cursor"),
  };
}

/** Back to a query string; defaults are left out so links stay short. */
export function writeHostsQuery(q: HostsQuery): string {
  const p = new URLSearchParams();
  if (q.states.length > 0) p.set("state", q.states.join(","));
  if (q.zone) p.set("zone", q.zone);
  if (q.q) p.set("q", q.q);
  if (q.sort !== "hostname") p.set("sort", q.sort);
  if (q.order !== "asc") p.set("order", q.order);
  if (q.cursor) p.set("cursor", q.cursor);
  const text = p.toString();
  return text ? `?${text}` : "";
}

export function listInput(q: HostsQuery): HostListInput {
  return {
    states: q.states,
    attributes: q.zone ? { zone: q.zone } : {},
    text: q.q,
    sort: q.sort,
    order: q.order,
    limit: PAGE_SIZE,
    cursor: q.cursor,
  };
}

/** Every filter cleared: all hosts. */
export const NO_FILTERS = { states: [], zone: "", q: "" } satisfies Partial<HostsQuery>;

/** Whether any filter narrows the list (the empty state says different things). */
export const isFiltered = (q: HostsQuery): boolean =>
  q.states.length > 0 || q.zone !== "" || q.q !== "";
