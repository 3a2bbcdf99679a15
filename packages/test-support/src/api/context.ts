import type { Actor, Context } from "@peloton/api";
import { ChangeListener } from "@peloton/storage";
import { testGateway } from "@peloton/test-support/storage/gateway.ts";
import { inject } from "vitest";
import "@peloton/test-support/storage/provided-context.ts";

/** A real API context on the run's scratch database: gateway, change feed, an actor. */
export function testContext(actor: Actor = { login: "alice", displayName: "Alice" }): Context & {
  close: () => Promise<void>;
} {
  const gateway = testGateway();
  const changes = new ChangeListener(inject("databaseUrl"), { coalesceMs: 20 });
  return {
    gateway,
    changes,
    actor,
    close: async () => {
      await changes.stop();
      await gateway.close();
    },
  };
}
