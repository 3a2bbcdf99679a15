import type { Actor, Context } from "@peloton/api";
import { schedulerServices } from "@peloton/scheduler";
import { ChangeListener, type StorageGateway } from "@peloton/storage";
import { testGateway } from "@peloton/test-support/storage/gateway.ts";
import { inject } from "vitest";
import "@peloton/test-support/storage/provided-context.ts";

/**
 * An actor for API tests: an admin named alice signed in by session, unless
 * the fields given say otherwise (a role, teams, a token channel).
 */
export function testActor(fields: Partial<Actor> = {}): Actor {
  const login = fields.login ?? "alice";
  return {
    userId: `00000000-0000-4000-8000-${login
      .padEnd(12, "0")
      .slice(0, 12)
      .replace(/[^0-9a-f]/g, "0")}`,
    login,
    displayName: login.charAt(0).toUpperCase() + login.slice(1),
    role: "ADMIN",
    teams: [],
    hostMaintenance: false,
    via: { kind: "session" },
    ...fields,
  };
}

/**
 * A real API context on the run's scratch database: the gateway, the
 * scheduler's services on it, a change feed, an actor. The gateway is the
 * whole one (tests arrange state through it); resolvers still see it typed
 * read-only, as `Context` declares.
 */
export function testContext(actor: Actor = testActor()): Context & {
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
