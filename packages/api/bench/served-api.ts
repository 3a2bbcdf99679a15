/**
 * The API benchmarks' stage: a scratch database, its gateway, change
 * listener and scheduler services, and the API served over HTTP on them;
 * all of it taken down after `fn`, whatever it does.
 */
import { schedulerServices } from "@peloton/scheduler";
import { ChangeListener, openGateway, type StorageGateway } from "@peloton/storage";
import { type ServedApi, serveApi } from "@peloton/test-support/api/http-server.ts";
import { createScratchDatabase } from "@peloton/test-support/storage/scratch-database.ts";

export interface ApiStage {
  gateway: StorageGateway;
  api: ServedApi;
}

export async function withServedApi<T>(
  databaseName: string,
  fn: (stage: ApiStage) => Promise<T>,
): Promise<T> {
  const db = await createScratchDatabase(databaseName);
  const gateway = openGateway(db.url, { max: 4 });
  const changes = new ChangeListener(db.url);
  // Made once, as the console's process does (packages/api/src/server/gateway.ts).
  const scheduler = schedulerServices(gateway);
  const api = await serveApi(() => ({
    gateway,
    scheduler,
    changes,
    actor: {
      userId: "00000000-0000-4000-8000-000000000000",
      login: "bench",
      displayName: "bench",
      role: "ADMIN",
      teams: [],
      hostMaintenance: true,
      via: { kind: "session" },
    },
  }));
  try {
    return await fn({ gateway, api });
  } finally {
    await api.close();
    await changes.stop();
    await gateway.close();
    await db.dispose();
  }
}
