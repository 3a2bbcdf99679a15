/**
 * The one tRPC setup file: router and procedure builders only. Identity lives
 * in the context. The error formatter gives every error structured issues
 * (`data.issues`: field, code, message) so that forms can place each message
 * beside its input: zod's input errors and the engine's rule errors alike.
 */
import { initTRPC } from "@trpc/server";
import type { Context } from "./context.ts";
import { issuesOf } from "./issues.ts";
import { transformer } from "./transformer.ts";

const t = initTRPC.context<Context>().create({
  transformer,
  // Live streams: a ping keeps proxies from closing an idle stream, and the
  // client reconnects by itself when pings stop arriving.
  sse: {
    ping: { enabled: true, intervalMs: 10_000 },
    client: { reconnectAfterInactivityMs: 25_000 },
  },
  errorFormatter({ shape, error, input }) {
    return { ...shape, data: { ...shape.data, issues: issuesOf(error.cause, input) } };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
