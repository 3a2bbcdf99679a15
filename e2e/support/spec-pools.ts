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

type Api = ReturnType<typeof adminApi>;

/**
 * A spec's own pool under /infra for the e2e team: `cpu` cores reserved and
 * its limit, 1 GiB of memory and disk, no GPU.
 */
export async function createSpecPool(
  api: Api,
  path: string,
  cpu: number,
  description: string,
): Promise<void> {
  await api.pools.create.mutate({
    path,
    config: {
      name: path.split("/").pop()!,
      owningTeam: "e2e",
      ldapGroups: [],
      description,
      resources: [
        { kind: "cpu", reservation: cpu, limit: cpu, share: 1 },
        { kind: "memory", reservation: 0, limit: 1024, share: 1 },
        { kind: "disk", reservation: 0, limit: 1024, share: 1 },
        { kind: "gpu", reservation: 0, limit: 0, share: 1 },
      ],
    },
  });
}

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
