/**
 * Change announcements: every committed state change is announced on one
 * PostgreSQL NOTIFY channel so that every console replica can push it to the
 * browsers that show it (ARCHITECTURE.md, "announced with LISTEN/NOTIFY").
 *
 * A change says *what kind of thing* changed and *which ones* (their natural
 * keys: pool path, job id, "jobId/instance", hostname, preemption id). It
 * never carries the new state: readers refetch what they show, so a lost or
 * coalesced announcement can only delay a view, never make it wrong.
 */
export const CHANGE_CHANNEL = "peloton_changes";

export const CHANGE_TOPICS = [
  "pools",
  "jobs",
  "tasks",
  "hosts",
  "preemptions",
  "updates",
  "volumes",
  "audit",
] as const;
export type ChangeTopic = (typeof CHANGE_TOPICS)[number];

export interface Change {
  topic: ChangeTopic;
  /** Keys of the changed rows; `null` when too many to list ("refetch all"). */
  keys: string[] | null;
}

/** NOTIFY payloads are limited to 8,000 bytes; past this many keys we say "many". */
export const MAX_KEYS_PER_CHANGE = 100;

export function encodeChange(change: Change): string {
  const keys =
    change.keys === null || change.keys.length > MAX_KEYS_PER_CHANGE ? null : change.keys;
  const payload = JSON.stringify({ t: change.topic, k: keys });
  // Keys are ids and paths; a pathological one still must not break the NOTIFY.
  return payload.length < 7_900 ? payload : JSON.stringify({ t: change.topic, k: null });
}

export function decodeChange(payload: string): Change | null {
  try {
    const raw = JSON.parse(payload) as { t?: unknown; k?: unknown };
    if (!CHANGE_TOPICS.includes(raw.t as ChangeTopic)) return null;
    const keys = Array.isArray(raw.k) ? raw.k.filter((k) => typeof k === "string") : null;
    return { topic: raw.t as ChangeTopic, keys };
  } catch {
    return null;
  }
}
