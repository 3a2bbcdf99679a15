/**
 * The jobs page's state lives in the URL (filters, sort, page), so a view can
 * be shared as a link:
 * `/jobs?state=RUNNING,PENDING&type=BATCH&pool=/infra/batch&owner=alice&label=team=ml&q=etl&sort=priority&order=desc`.
 */
import { JOB_SORT_NAMES, JOB_STATES, JOB_TYPES } from "@peloton/api/schemas";
import type { JobListInput } from "@/lib/api-types";

export type JobState = NonNullable<JobListInput["states"]>[number];
export type JobType = NonNullable<JobListInput["types"]>[number];
export type JobSortKey = NonNullable<JobListInput["sort"]>;
export interface Label {
  key: string;
  value: string;
}

export const PAGE_SIZE = 100;
/** Instances per page of a job's instances table (loaded as the reader scrolls). */
export const INSTANCES_PAGE = 500;

export interface JobsQuery {
  states: JobState[];
  types: JobType[];
  pool: string;
  owner: string;
  labels: Label[];
  q: string;
  sort: JobSortKey;
  order: "asc" | "desc";
  cursor: string | null;
}

type Params = { get(name: string): string | null };

function listOf<T extends string>(text: string | null, allowed: readonly string[]): T[] {
  return (text ?? "").split(",").filter((s): s is T => allowed.includes(s));
}

/** `team=ml,tier=1` → labels; a part without "=" is not a label and is dropped. */
export function parseLabels(text: string): Label[] {
  return text
    .split(",")
    .map((pair) => pair.trim())
    .filter((pair) => pair.indexOf("=") > 0)
    .map((pair) => {
      const at = pair.indexOf("=");
      return { key: pair.slice(0, at).trim(), value: pair.slice(at + 1).trim() };
    });
}

export const formatLabels = (labels: readonly Label[]) =>
  labels.map((l) => `${l.key}=${l.value}`).join(",");

export function readJobsQuery(params: Params): JobsQuery {
  const sort = params.get("sort") ?? "";
  return {
    states: listOf<JobState>(params.get("state"), JOB_STATES),
    types: listOf<JobType>(params.get("type"), JOB_TYPES),
    pool: params.get("pool") ?? "",
    owner: params.get("owner") ?? "",
    labels: parseLabels(params.get("label") ?? ""),
    q: params.get("q") ?? "",
    sort: (JOB_SORT_NAMES as readonly string[]).includes(sort) ? (sort as JobSortKey) : "createdAt",
    order: params.get("order") === "asc" ? "asc" : "desc",
    cursor: params.get("cursor"),
  };
}

/** Back to a query string; defaults are left out so links stay short. */
export function writeJobsQuery(q: JobsQuery): string {
  const p = new URLSearchParams();
  if (q.states.length > 0) p.set("state", q.states.join(","));
  if (q.types.length > 0) p.set("type", q.types.join(","));
  if (q.pool) p.set("pool", q.pool);
  if (q.owner) p.set("owner", q.owner);
  if (q.labels.length > 0) p.set("label", formatLabels(q.labels));
  if (q.q) p.set("q", q.q);
  if (q.sort !== "createdAt") p.set("sort", q.sort);
  if (q.order !== "desc") p.set("order", q.order);
  if (q.cursor) p.set("cursor", q.cursor);
  const text = p.toString();
  return text ? `?${text}` : "";
}

export function listInput(q: JobsQuery): JobListInput {
  return {
    states: q.states,
    types: q.types,
    ...(q.pool ? { pool: q.pool } : {}),
    ...(q.owner ? { owner: q.owner } : {}),
    labels: q.labels,
    text: q.q,
    sort: q.sort,
    order: q.order,
    limit: PAGE_SIZE,
    cursor: q.cursor,
    // Each row says why its job's instances wait (the first in line's reason).
    waiting: true,
  };
}

/** Every filter cleared: all jobs. */
export const NO_FILTERS = {
  states: [],
  types: [],
  pool: "",
  owner: "",
  labels: [],
  q: "",
} satisfies Partial<JobsQuery>;

export const isFiltered = (q: JobsQuery) =>
  q.states.length > 0 ||
  q.types.length > 0 ||
  !!q.pool ||
  !!q.owner ||
  q.labels.length > 0 ||
  !!q.q;
