/**
 * The HTTP edge: the tRPC fetch handler that the console's route serves at
 * /api/trpc, bounded by edge.ts. The CLI and the browser both come through here.
 */
import type { Actor } from "../auth/actor.ts";
import { SIGN_IN_FIRST } from "../auth/authorize.ts";
import { readHealth, replicaFromEnv } from "../health.ts";
import { preemptionsCsvResponse } from "../preemptions/http.ts";
import { createTrpcEdge } from "./edge.ts";
import { processChanges, processReads, processServices } from "./gateway.ts";

let edge: ((req: Request) => Promise<Response>) | undefined;

export function handleTrpcRequest(req: Request, endpoint = "/api/trpc"): Promise<Response> {
  edge ??= createTrpcEdge({
    endpoint,
    createContext: () => ({
      gateway: processReads(),
      scheduler: processServices(),
      changes: processChanges(),
      actor: null,
    }),
  });
  return edge(req);
}

/**
 * Who a request comes from (docs/identity.md): the person a valid Bearer
 * token or session cookie belongs to, else null. The authentication branch
 * implements it (auth/resolve.ts); until then nobody is signed in.
 */
export async function requestActor(_req: Request): Promise<Actor | null> {
  return null;
}

/**
 * GET /api/preemptions.csv: the preemption history for the page's filters,
 * as a file; 401 "sign in first" without an actor, like every read.
 * `resolve` finds the actor (tests give their own).
 */
export async function handlePreemptionsCsv(
  req: Request,
  resolve: (req: Request) => Promise<Actor | null> = requestActor,
): Promise<Response> {
  if ((await resolve(req)) === null)
    return new Response(`${SIGN_IN_FIRST}\n`, {
      status: 401,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  return preemptionsCsvResponse(processReads(), new URL(req.url));
}

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
