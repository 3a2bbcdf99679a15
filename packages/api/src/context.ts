import type { ChangeListener, StorageGateway } from "@peloton/storage";

/** Who is acting. Roles arrive later; the seam is here. */
export interface Actor {
  login: string;
  displayName: string;
}

/** The process's feed of committed changes (one LISTEN connection, many streams). */
export type ChangeFeed = Pick<ChangeListener, "subscribe" | "onState" | "state">;

export interface Context {
  gateway: StorageGateway;
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
