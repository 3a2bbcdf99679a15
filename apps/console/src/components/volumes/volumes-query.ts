/**
 * The volumes page's state lives in the URL (filters, sort, page), so a view
 * can be shared as a link: `/volumes?state=INITIALIZED&host=node-7&job=<id>&sort=size&order=desc`.
 */
import { VOLUME_SORT_NAMES, VOLUME_STATES } from "@peloton/api/schemas";
import type { VolumeListInput } from "@/lib/api-types";

export type VolumeState = (typeof VOLUME_STATES)[number];
export type SortKey = (typeof VOLUME_SORT_NAMES)[number];
export { VOLUME_STATES };

export const PAGE_SIZE = 100;

export interface VolumesQuery {
  states: VolumeState[];
  host: string;
  /** A job id. */
  job: string;
  /** Part of the volume id or the job name. */
  q: string;
  sort: SortKey;
  order: "asc" | "desc";
  cursor: string | null;
}

type Params = { get(name: string): string | null };

export function readVolumesQuery(params: Params): VolumesQuery {
  const states = (params.get("state") ?? "")
    .split(",")
    .filter((s): s is VolumeState => (VOLUME_STATES as readonly string[]).includes(s));
  const sort = params.get("sort");
  return {
    states,
    host: params.get("host") ?? "",
    job: params.get("job") ?? "",
    q: params.get("q") ?? "",
    sort: (VOLUME_SORT_NAMES as readonly string[]).includes(sort ?? "") ? (sort as SortKey) : "job",
    order: params.get("order") === "desc" ? "desc" : "asc",
    cursor: params.get("cursor"),
  };
}

/** Back to a query string; defaults are left out so links stay short. */
export function writeVolumesQuery(q: VolumesQuery): string {
  const p = new URLSearchParams();
  if (q.states.length > 0) p.set("state", q.states.join(","));
  if (q.host) p.set("host", q.host);
  if (q.job) p.set("job", q.job);
  if (q.q) p.set("q", q.q);
  if (q.sort !== "job") p.set("sort", q.sort);
  if (q.order !== "asc") p.set("order", q.order);
  if (q.cursor) p.set("cursor", q.cursor);
  const text = p.toString();
  return text ? `?${text}` : "";
}

export function listInput(q: VolumesQuery): VolumeListInput {
  return {
    states: q.states,
    ...(q.host ? { host: q.host } : {}),
    ...(q.job ? { jobId: q.job } : {}),
    text: q.q,
    sort: q.sort,
    order: q.order,
    limit: PAGE_SIZE,
    cursor: q.cursor,
  };
}

export function isFiltered(q: VolumesQuery): boolean {
  return q.states.length > 0 || Boolean(q.host || q.job || q.q);
}

/** Every filter off (sort and order stay: they are how the reader likes the table). */
export const NO_FILTERS = { states: [], host: "", job: "", q: "" } satisfies Partial<VolumesQuery>;
