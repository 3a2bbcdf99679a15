import type { SchedulerServices } from "@peloton/scheduler";
import type { ChangeListener, ReadOnlyGateway } from "@peloton/storage";

/** Who is acting. Roles arrive later; the seam is here. */
export interface Actor {
  login: string;
  displayName: string;
}

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
  actor: Actor;
  /** Names this request in answers (`data.requestId`) and in the server log; set by the HTTP edge. */
  requestId?: string;
}

/**
 * The default local identity until authentication exists: the operator who
 * started the console (PELOTON_USER overrides).
 */
export function defaultActor(env: NodeJS.ProcessEnv = process.env): Actor {
  const login = env.PELOTON_USER || env.USER || "local";
  return { login, displayName: login };
}
