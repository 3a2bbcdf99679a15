import type { PoolRecord, StorageGateway } from "../src/index.ts";

/** The root and one pool below it (`/<name>`), for a benchmark's jobs. */
export async function benchPool(gateway: StorageGateway, name: string): Promise<PoolRecord> {
  const root = await gateway.pools.create(
    { path: "/", name: "root", parentId: null, resources: {} },
    "bench",
  );
  return gateway.pools.create(
    { path: `/${name}`, name, parentId: root.id, resources: {} },
    "bench",
  );
}
