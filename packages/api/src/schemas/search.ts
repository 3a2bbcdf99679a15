/**
 * What the command palette's text asks for (`search.query`): the API reads
 * it once here and runs only the look-ups it can mean, each an indexed one.
 * Pure and zod-only, so it is safe in the browser and table-tested.
 *
 *   owner:alice          jobs of owner alice
 *   label:team=ml, a=b   jobs carrying that label
 *   1a2b3c4d             a job by the id prefix the lists show (4+ hex digits), and names
 *   <uuid>-3-2           a task by its cluster (Mesos) task id: <job id>-<instance>-<run>
 *   nightly/3, <uuid>/3  an instance of a job
 *   anything else        job names, owners, pools, hosts, volume ids
 */
import { boundedText, MAX_SEARCH_LENGTH } from "@peloton/engine";
import { z } from "zod";

export const SEARCH_LIMIT_MAX = 50;

export const searchInput = z.object({
  q: boundedText(MAX_SEARCH_LENGTH, {
    trim: true,
    min: 1,
    minMessage: "type something to search",
  }),
  limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).default(10),
});
export type SearchInput = z.input<typeof searchInput>;

/** The shortest id prefix searched as one: shorter hex is too common inside names. */
export const MIN_ID_PREFIX = 4;

export type SearchIntent =
  | { kind: "owner"; owner: string }
  | { kind: "label"; key: string; value: string }
  | { kind: "clusterTask"; mesosTaskId: string; jobId: string; instance: number }
  | { kind: "instance"; job: string; instance: number }
  /** Free text; `idRange` when it reads as the start of a job id. */
  | { kind: "text"; text: string; idRange: { low: string; high: string } | null };

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const CLUSTER_TASK = new RegExp(`^(${UUID})-(\\d{1,10})-(\\d{1,10})$`, "i");
/** `<job>/<instance>`: a job's id or part of its name, then an instance (pool paths start with "/"). */
const INSTANCE_REF = /^([^/\s][^/]*)\/(\d{1,10})$/;
const LABEL = /^(?:label:)?\s*([^=\s:][^=]*?)\s*=\s*(.+)$/i;
const OWNER = /^owner:\s*(.+)$/i;
const MAX_INSTANCE = 2_147_483_647;

/**
 * The id range a prefix of a job id covers ("1a2b" → 1a2b0000-… to
 * 1a2bffff-…), read with or without its dashes; null when the text is not
 * the start of a UUID. A range of the primary key, not a text match: indexed.
 */
export function uuidPrefixRange(text: string): { low: string; high: string } | null {
  const lower = text.toLowerCase();
  if (!/^[0-9a-f-]+$/.test(lower)) return null;
  const hex = lower.replace(/-/g, "");
  if (hex.length < MIN_ID_PREFIX || hex.length > 32) return null;
  // Dashes, when typed, must sit where a UUID has them (8-4-4-4-12).
  const dashed = (h: string) =>
    `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  const low = dashed(hex.padEnd(32, "0"));
  if (lower.includes("-") && !low.startsWith(lower)) return null;
  return { low, high: dashed(hex.padEnd(32, "f")) };
}

export function parseSearch(q: string): SearchIntent {
  const text = q.trim();
  const owner = OWNER.exec(text);
  if (owner) return { kind: "owner", owner: owner[1]!.trim() };
  const cluster = CLUSTER_TASK.exec(text);
  if (cluster) {
    const instance = Number(cluster[2]);
    if (instance <= MAX_INSTANCE)
      return {
        kind: "clusterTask",
        mesosTaskId: text,
        jobId: cluster[1]!.toLowerCase(),
        instance,
      };
  }
  const ref = INSTANCE_REF.exec(text);
  if (ref && Number(ref[2]) <= MAX_INSTANCE)
    return { kind: "instance", job: ref[1]!, instance: Number(ref[2]) };
  const label = LABEL.exec(text);
  if (label) return { kind: "label", key: label[1]!, value: label[2]!.trim() };
  return { kind: "text", text, idRange: uuidPrefixRange(text) };
}

/**
 * Hits of several kinds within `limit`: every group that found something is
 * shown (a flood of job names does not hide the one pool that matched), each
 * keeping its own order; what is left over goes to the groups in turn.
 */
export function mergeHitGroups<T>(groups: readonly (readonly T[])[], limit: number): T[] {
  const taken = groups.map(() => 0);
  let total = 0;
  for (let progress = true; progress && total < limit; ) {
    progress = false;
    for (let g = 0; g < groups.length && total < limit; g++) {
      if (taken[g]! < groups[g]!.length) {
        taken[g]!++;
        total++;
        progress = true;
      }
    }
  }
  return groups.flatMap((group, g) => group.slice(0, taken[g]));
}
