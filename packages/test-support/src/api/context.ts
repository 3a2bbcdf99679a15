import type { Actor, Context } from "@peloton/api";
import { schedulerServices } from "@peloton/scheduler";
import { ChangeListener, type StorageGateway } from "@peloton/storage";
import { testGateway } from "@peloton/test-support/storage/gateway.ts";
import { inject } from "vitest";
import "@peloton/test-support/storage/provided-context.ts";

/**
 * A real API context on the run's scratch database: the gateway, the
 * scheduler's services on it, a change feed, an actor. The gateway is the
 * whole one (tests arrange state through it); resolvers still see it typed
 * read-only, as `Context` declares.
 */
export function testContext(actor: Actor = { login: "alice", displayName: "Alice" }): Context & {
  gateway: StorageGateway;
  close: () => Promise<void>;
} {
  const gateway = testGateway();
  const changes = new ChangeListener(inject("databaseUrl"), { coalesceMs: 20 });
  return {
    gateway,
    scheduler: schedulerServices(gateway),
    changes,
    actor,
    close: async () => {
      await changes.stop();
      await gateway.close();
    },
  };
}
