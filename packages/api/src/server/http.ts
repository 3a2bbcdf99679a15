/**
 * The HTTP edge: the tRPC fetch handler that the console's route serves at
 * /api/trpc, bounded by edge.ts. The CLI and the browser both come through here.
 */
import { defaultActor } from "../context.ts";
import { preemptionsCsvResponse } from "../preemptions/http.ts";
import { createTrpcEdge } from "./edge.ts";
import { processChanges, processGateway } from "./gateway.ts";

let edge: ((req: Request) => Promise<Response>) | undefined;

export function handleTrpcRequest(req: Request, endpoint = "/api/trpc"): Promise<Response> {
  edge ??= createTrpcEdge({
    endpoint,
    createContext: () => ({
      gateway: processGateway(),
      changes: processChanges(),
      actor: defaultActor(),
    }),
  });
  return edge(req);
}

/** GET /api/preemptions.csv: the preemption history for the page's filters, as a file. */
export function handlePreemptionsCsv(req: Request): Response {
  return preemptionsCsvResponse(processGateway(), new URL(req.url));
}

export { createTrpcEdge, type EdgeOptions } from "./edge.ts";
export { processChanges, processGateway } from "./gateway.ts";
