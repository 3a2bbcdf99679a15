/**
 * Pools a spec creates under /infra take part of its CPU reservation, and the
 * demo's /infra has only 4 cores of it to spare: a spec gives its pool's
 * reservation back when it ends, so the specs after it (in whatever order)
 * find room for theirs. Limits and shares stay; the pool and its jobs stay
 * for the screenshots and the pages of later specs.
 */
import { RESOURCE_KINDS } from "@peloton/engine";
import { test } from "@playwright/test";
import { adminApi } from "./auth.ts";

export async function releaseReservation(path: string): Promise<void> {
  const baseUrl = test.info().project.use.baseURL;
  if (!baseUrl) return;
  const api = adminApi(baseUrl);
  const pool = await api.pools.get.query({ path }).catch(() => null);
  if (pool === null) return;
  await api.pools.update.mutate({
    path,
    version: pool.version,
    config: {
      name: pool.name,
      owningTeam: pool.owningTeam,
      ldapGroups: [...pool.ldapGroups],
      description: pool.description,
      resources: RESOURCE_KINDS.map((kind) => ({
        kind,
        reservation: 0,
        limit: pool.resources[kind].limit,
        share: pool.resources[kind].share,
      })),
    },
  });
}
