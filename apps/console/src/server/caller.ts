import "server-only";
import { createCaller } from "@peloton/api";
import { processChanges, processReads, processServices } from "@peloton/api/http";

/** Server components call procedures in-process, as the same actor the API would see. */
export function serverCaller() {
  return createCaller({
    gateway: processReads(),
    scheduler: processServices(),
    changes: processChanges(),
    actor: null,
  });
}
