import "server-only";
import { type Actor, type Context, createCaller } from "@peloton/api";
import {
  processAuthSettings,
  processChanges,
  processReads,
  processServices,
  resolveActor,
} from "@peloton/api/http";
import { headers } from "next/headers";

/**
 * The incoming page request, rebuilt from next/headers (server components
 * get no Request): its cookie and Authorization headers are what the actor
 * is resolved from, exactly as /api/trpc would.
 */
async function incomingRequest(): Promise<Request> {
  const incoming = await headers();
  return new Request(new URL("/", processAuthSettings().publicUrl), {
    headers: new Headers(incoming),
  });
}

/** Server components call procedures in-process, as the same actor the API would see. */
export function serverCaller() {
  // As the edge does: one lookup, by the first procedure that needs someone signed in.
  let actor: Promise<Actor | null> | undefined;
  const context: Context = {
    gateway: processReads(),
    scheduler: processServices(),
    changes: processChanges(),
    actor: null,
    lookUpActor: () => {
      actor ??= incomingRequest().then(resolveActor);
      return actor;
    },
  };
  return createCaller(context);
}
