import type { StorageGateway } from "@peloton/storage";
import { DEMO_POOLS, toNewPool } from "./demo-pools.ts";

export const ROOT_PATH = "/";
const SEED_ACTOR = "system:demo";

/**
 * Replicas starting together on an empty database run the set-up below at
 * the same moment; without this lock both would see no pools and both
 * create them, and the second would fail on the unique path. Under it, the
 * second waits for the first to commit and then finds the pools there.
 */
const SEED_LOCK = "peloton:seed";

/**
 * Makes sure the root pool exists (every tree needs one). Idempotent, and
 * safe when several replicas run it at once.
 */
export async function ensureRootPool(gateway: StorageGateway): Promise<void> {
  if (await gateway.pools.getByPath(ROOT_PATH)) return;
  await gateway.transaction(async (tx) => {
    await tx.cluster.serialize(SEED_LOCK);
    if (await tx.pools.getByPath(ROOT_PATH)) return;
    await tx.pools.create(
      { path: ROOT_PATH, name: "root", parentId: null, resources: {} },
      "system",
    );
  });
}

/**
 * Creates the demo pool tree on a database that has no pools besides the
 * root, through the repositories (so each pool gets its history row). Never
 * touches a database that already holds user pools; of replicas seeding at
 * once, one seeds and the others find its pools.
 */
export async function seedDemoData(gateway: StorageGateway): Promise<{ seeded: boolean }> {
  return gateway.transaction(async (tx) => {
    // Read after the lock: a replica that seeded first has committed by now.
    await tx.cluster.serialize(SEED_LOCK);
    const existing = await tx.pools.listAll();
    if (existing.some((p) => p.path !== ROOT_PATH)) return { seeded: false };
    const root =
      existing.find((p) => p.path === ROOT_PATH) ??
      (await tx.pools.create(
        { path: ROOT_PATH, name: "root", parentId: null, resources: {} },
        "system",
      ));
    const idByPath = new Map<string, string>([[ROOT_PATH, root.id]]);
    for (const demo of DEMO_POOLS) {
      const parentPath = demo.path.slice(0, demo.path.lastIndexOf("/")) || ROOT_PATH;
      const parentId = idByPath.get(parentPath);
      if (!parentId) throw new Error(`demo pool ${demo.path} listed before its parent`);
      const created = await tx.pools.create(toNewPool(demo, parentId), SEED_ACTOR);
      idByPath.set(created.path, created.id);
    }
    return { seeded: true };
  });
}
