import type { SchedulerServices } from "@peloton/scheduler";
import type { ChangeListener, ReadOnlyGateway } from "@peloton/storage";
import type { Actor } from "./auth/actor.ts";

export type { Actor } from "./auth/actor.ts";

/** The process's feed of committed changes (one LISTEN connection, many streams). */
export type ChangeFeed = Pick<ChangeListener, "subscribe" | "onState" | "state">;

/**
 * What a resolver works with. Reads go straight to storage, through a view
 * that has no write (any replica serves them); every write goes through the
 * scheduler's service that owns it (ARCHITECTURE.md).
 */
export interface Context {
  gateway: ReadOnlyGateway;
  scheduler: SchedulerServices;
  changes: ChangeFeed;
  /** Who is acting; null when nobody signed in (or not looked up yet: see `lookUpActor`). */
  actor: Actor | null;
  /**
   * Looks the actor up, when the edge defers it to the first procedure that
   * needs one (auth/authorize.ts): a public procedure (the health probe) then
   * never reads the database for it, and a database outage during the lookup
   * is answered as every other one (503), not as a crash of the request.
   */
  lookUpActor?: () => Promise<Actor | null>;
  /** Names this request in answers (`data.requestId`) and in the server log; set by the HTTP edge. */
  requestId?: string;
}
