/**
 * Pools as Peloton's `respool dump` prints them: its ResourcePoolInfo (id,
 * config, parent, children, usages, path). YAML is written the way Peloton's
 * Go YAML encoder writes its structs (all-lowercase keys, enums as numbers);
 * JSON with the protobuf JSON names (camelCase). Either can be read back by
 * `respool create` once `parent` is removed, as in Peloton, and by
 * `respool update` as it is (its `version` guards the edit).
 */
import type { AppRouter, inferRouterOutputs } from "@peloton/api";
import { RESERVATION_TYPE_NUMBERS, type ResourceKind } from "@peloton/api/schemas";
import { stringify } from "yaml";

type PoolView = inferRouterOutputs<AppRouter>["pools"]["tree"]["pools"][number];

/** The order Peloton's CLI prints the kinds in. */
export const KIND_COLUMNS: readonly ResourceKind[] = ["cpu", "memory", "disk", "gpu"];

export function poolInfo(pool: PoolView, childIds: readonly string[]) {
  const children = childIds.map((value) => ({ value }));
  const parent = { value: pool.parentId ?? "" };
  return {
    id: { value: pool.id },
    config: {
      name: pool.name,
      owningTeam: pool.owningTeam,
      ldapGroups: [...pool.ldapGroups],
      description: pool.description,
      resources: KIND_COLUMNS.map((kind) => {
        const r = pool.resources[kind];
        return {
          kind,
          reservation: r.reservation,
          limit: r.limit,
          share: r.share,
          type: RESERVATION_TYPE_NUMBERS[r.type],
        };
      }),
      parent,
      policy: pool.policy,
      ...(pool.controllerLimitMaxPercent === null
        ? {}
        : { controllerLimit: { maxPercent: pool.controllerLimitMaxPercent } }),
      slackLimit: { maxPercent: pool.slackLimitMaxPercent },
    },
    parent,
    children,
    usages: KIND_COLUMNS.map((kind) => ({
      kind,
      allocation: pool.resources[kind].allocation,
      slack: pool.resources[kind].slackAllocation,
    })),
    path: { value: pool.path },
    // Not Peloton's: the version this was read at, so that `respool update`
    // of an edited copy is refused when the pool changed since.
    version: pool.version,
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Go's YAML encoder lowercases struct field names: `owningTeam` → `owningteam`. */
function lowercaseKeys(value: unknown): Json {
  if (Array.isArray(value)) return value.map(lowercaseKeys);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k.toLowerCase(), lowercaseKeys(v)]),
    );
  return value as Json;
}

export type DumpFormat = "yaml" | "yml" | "json";

export function formatPoolInfos(infos: readonly unknown[], format: DumpFormat): string {
  if (format === "json") return JSON.stringify(infos, null, 2);
  return stringify(lowercaseKeys(infos)).trimEnd();
}
