/**
 * The process's dependencies: the same storage reads, scheduler services and
 * change feed as the console's tRPC edge, and the actor of a Bearer token
 * (DATABASE_URL names the database, as for the console).
 */
import {
  processChanges,
  processReads,
  processServices,
  resolveTokenActor,
} from "@peloton/api/http";
import type { PelotonApiDeps } from "./deps.ts";

export function processDeps(): PelotonApiDeps {
  return {
    context: () => ({
      gateway: processReads(),
      scheduler: processServices(),
      changes: processChanges(),
    }),
    resolveActor: (headers) =>
      resolveTokenActor(new Request("http://peloton-api.invalid/", { headers })),
  };
}
