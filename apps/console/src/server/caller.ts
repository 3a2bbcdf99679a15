import "server-only";
import { createCaller, defaultActor } from "@peloton/api";
import { processChanges, processGateway } from "@peloton/api/http";

/** Server components call procedures in-process, as the same actor the API would see. */
export function serverCaller() {
  return createCaller({
    gateway: processGateway(),
    changes: processChanges(),
    actor: defaultActor(),
  });
}
