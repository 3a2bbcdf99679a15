/**
 * The HTTP edge: the tRPC fetch handler that the console's route serves at
 * /api/trpc. The CLI and the browser both come through here.
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { defaultActor } from "../context.ts";
import { readHealth, replicaFromEnv } from "../health.ts";
import { preemptionsCsvResponse } from "../preemptions/http.ts";
import { appRouter } from "../root.ts";
import { processChanges, processGateway } from "./gateway.ts";

export function handleTrpcRequest(req: Request, endpoint = "/api/trpc"): Promise<Response> {
  return fetchRequestHandler({
    endpoint,
    req,
    router: appRouter,
    createContext: () => ({
      gateway: processGateway(),
      changes: processChanges(),
      actor: defaultActor(),
    }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR")
        console.error(`tRPC ${path ?? "?"}:`, error.cause ?? error);
    },
  });
}
/** GET /api/preemptions.csv: the preemption history for the page's filters, as a file. */
export function handlePreemptionsCsv(req: Request): Response {
  return preemptionsCsvResponse(processGateway(), new URL(req.url));
}

export { processChanges, processGateway } from "./gateway.ts";

/**
 * GET /api/health: the health report as JSON (health.ts); 200 while the
 * database answers, 503 when it does not. Never cached.
 */
export async function handleHealthRequest(): Promise<Response> {
  const report = await readHealth(processGateway(), replicaFromEnv());
  return Response.json(report, {
    status: report.database.reachable ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}
