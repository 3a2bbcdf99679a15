/**
 * The HTTP edge: the tRPC fetch handler that the console's route serves at
 * /api/trpc, bounded by edge.ts. The CLI and the browser both come through here.
 */

import type { ReadOnlyGateway } from "@peloton/storage";
import type { Actor } from "../auth/actor.ts";
import { SIGN_IN_FIRST } from "../auth/authorize.ts";
import { CSRF_REFUSAL, isCrossSiteMutation } from "../auth/csrf.ts";
import { processAuthSettings } from "../auth/process.ts";
import { resolveActor } from "../auth/resolve.ts";
import { readHealth, replicaFromEnv } from "../health.ts";
import { preemptionsCsvResponse } from "../preemptions/http.ts";
import { createTrpcEdge } from "./edge.ts";
import { processChanges, processReads, processServices } from "./gateway.ts";

let edge: ((req: Request) => Promise<Response>) | undefined;

export function handleTrpcRequest(req: Request, endpoint = "/api/trpc"): Promise<Response> {
  edge ??= createTrpcEdge({
    endpoint,
    createContext: async (req) => {
      // One lookup per request, however many procedures a batch names.
      let actor: Promise<Actor | null> | undefined;
      return {
        gateway: processReads(),
        scheduler: processServices(),
        changes: processChanges(),
        actor: null,
        // Looked up by the first procedure that needs someone signed in (auth/authorize.ts).
        lookUpActor: () => {
          actor ??= resolveActor(req);
          return actor;
        },
      };
    },
    refuseCrossSite: (req) =>
      isCrossSiteMutation(req, processAuthSettings()) ? CSRF_REFUSAL : null,
  });
  return edge(req);
}

/**
 * GET /api/preemptions.csv: the preemption history for the page's filters,
 * as a file; 401 "sign in first" without an actor, like every read.
 * `resolve` finds the actor and `reads` the storage (tests give their own).
 */
export async function handlePreemptionsCsv(
  req: Request,
  resolve: (req: Request) => Promise<Actor | null> = resolveActor,
  reads: () => ReadOnlyGateway = processReads,
): Promise<Response> {
  if ((await resolve(req)) === null)
    return new Response(`${SIGN_IN_FIRST}\n`, {
      status: 401,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  return preemptionsCsvResponse(reads(), new URL(req.url));
}

export { type AuthProviders, authProviders } from "../auth/handler.ts";
export { handleAuthRequest, processAuth, processAuthSettings } from "../auth/process.ts";
export { resolveActor, resolveTokenActor } from "../auth/resolve.ts";
export { preemptionsCsvResponse } from "../preemptions/http.ts";
export { createTrpcEdge, type EdgeOptions } from "./edge.ts";
export { processChanges, processReads, processServices } from "./gateway.ts";

/**
 * GET /api/health: the health report as JSON (health.ts); 200 while the
 * database answers, 503 when it does not. Never cached.
 */
export async function handleHealthRequest(): Promise<Response> {
  const report = await readHealth(processReads(), replicaFromEnv());
  return Response.json(report, {
    status: report.database.reachable ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}
