/**
 * What Peloton's API needs of the process: the API context without its actor
 * (the same storage reads, scheduler services and change feed as the tRPC
 * edge) and who a request comes from. Every call goes through the tRPC
 * router's server-side caller, so input validation, authorization, audit
 * and every rule are the router's own code, not a second copy.
 */
import { type Actor, type Context, createCaller, type PelotonApiProtocol } from "@peloton/api";

export interface PelotonApiDeps {
  /** A fresh context for one call, actor aside. */
  context: () => Omit<Context, "actor" | "lookUpActor" | "requestId">;
  /** Who the headers come from (`authorization: Bearer pt_…`, else a session cookie); null for nobody. */
  resolveActor: (headers: Headers) => Promise<Actor | null>;
}

export type Caller = ReturnType<typeof createCaller>;

/**
 * The router as `headers`' sender, over `protocol`: the actor is looked up
 * by the first procedure that needs one, and its channel says which API it
 * came through, so the audit log reads `token:ci via grpc`.
 */
export function callerFor(
  deps: PelotonApiDeps,
  headers: Headers,
  protocol: PelotonApiProtocol,
  signal?: AbortSignal,
): Caller {
  let actor: Promise<Actor | null> | undefined;
  return createCaller(
    {
      ...deps.context(),
      actor: null,
      lookUpActor: () => {
        actor ??= deps
          .resolveActor(tokenOnly(headers))
          .then((found) => (found ? { ...found, via: { ...found.via, api: protocol } } : null));
        return actor;
      },
    },
    signal ? { signal } : {},
  );
}

/**
 * Only an `authorization: Bearer pt_…` token says who calls Peloton's API:
 * a browser's session cookie is not read, so no other site can make a
 * signed-in browser call it (the tRPC edge guards its cookies against that
 * separately; these endpoints do not need cookies at all).
 */
export function tokenOnly(headers: Headers): Headers {
  const only = new Headers();
  const authorization = headers.get("authorization");
  if (authorization) only.set("authorization", authorization);
  return only;
}
