import { RESOURCE_KINDS, type ResourceKind } from "../resources/kinds.ts";
import type { ReservationType } from "../vocabulary/reservation-types.ts";

/** One kind's settings in a pool. */
export interface ResourceConfig {
  readonly reservation: number;
  readonly limit: number;
  readonly share: number;
  readonly type: ReservationType;
}

/** A pool's settings for every kind (missing kinds filled with the defaults below). */
export type PoolResources = Readonly<Record<ResourceKind, ResourceConfig>>;

/** Peloton's `_defaultSlackLimit`: revocable tasks may use 20% of the reservation. */
export const DEFAULT_SLACK_LIMIT_PERCENT = 20;

/**
 * Peloton appends every kind a pool does not list with reservation 0, limit 0,
 * share 1 (`_defaultReservation`, `_defaultLimit`, `_defaultShare` in its
 * validator; peloton-semantics.md, the data contract).
 */
export const DEFAULT_RESOURCE_CONFIG: ResourceConfig = {
  reservation: 0,
  limit: 0,
  share: 1,
  type: "ELASTIC",
};

/** A resource entry as a user writes it: the kind is not checked yet, numbers may be missing. */
export interface ResourceEntryInput {
  readonly kind: string;
  readonly reservation?: number;
  readonly limit?: number;
  readonly share?: number;
  readonly type?: ReservationType;
}

/** A pool configuration as submitted on create or update (Peloton's ResourcePoolConfig). */
export interface PoolConfigInput {
  readonly name: string;
  /** A parent path named in the configuration itself; create forbids it, update must keep it. */
  readonly parent?: string | null;
  readonly resources: readonly ResourceEntryInput[];
  readonly controllerLimitMaxPercent?: number | null;
  readonly slackLimitMaxPercent?: number | null;
}

/**
 * The full per-kind settings from a list of entries. A listed kind takes 0 for
 * a missing number (protobuf's zero value: "a listed kind without `share` has
 * share 0"); an unlisted kind takes the defaults. Unknown kinds are ignored here:
 * validation reports them. When a kind is listed twice the first entry wins
 * (validation reports the duplicate).
 */
export function normalizePoolResources(entries: readonly ResourceEntryInput[]): PoolResources {
  const out: Partial<Record<ResourceKind, ResourceConfig>> = {};
  for (const e of entries) {
    const kind = RESOURCE_KINDS.find((k) => k === e.kind);
    if (!kind || out[kind]) continue;
    out[kind] = {
      reservation: e.reservation ?? 0,
      limit: e.limit ?? 0,
      share: e.share ?? 0,
      type: e.type ?? "ELASTIC",
    };
  }
  return {
    cpu: out.cpu ?? DEFAULT_RESOURCE_CONFIG,
    gpu: out.gpu ?? DEFAULT_RESOURCE_CONFIG,
    memory: out.memory ?? DEFAULT_RESOURCE_CONFIG,
    disk: out.disk ?? DEFAULT_RESOURCE_CONFIG,
  };
}

/** Settings with a reservation, limit and share for every kind, all zero. */
export function zeroPoolResources(): PoolResources {
  const zero: ResourceConfig = { reservation: 0, limit: 0, share: 0, type: "ELASTIC" };
  return { cpu: zero, gpu: zero, memory: zero, disk: zero };
}
