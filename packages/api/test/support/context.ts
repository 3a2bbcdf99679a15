import { ChangeListener } from "@peloton/storage";
import { inject } from "vitest";
import { testGateway } from "../../../storage/test/support/gateway.ts";
import type { Actor, Context } from "../../src/index.ts";
import "../../../storage/test/support/provided-context.ts";

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
