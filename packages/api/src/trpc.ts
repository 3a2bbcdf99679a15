/**
 * The one tRPC setup file: router and procedure builders only. Identity lives
 * in the context. The error formatter gives every error structured issues
 * (`data.issues`: field, code, message) so that forms can place each message
 * beside its input: zod's input errors and the engine's rule errors alike;
 * its message is sentences ("description: at most 4,096 characters (got
 * 1,048,576)"), never zod's JSON, and a 500 names only the request id
 * (`data.requestId`), whose log line holds the cause.
 */
import { MAX_REPORTED_ISSUES } from "@peloton/engine";
import { initTRPC } from "@trpc/server";
import type { Context } from "./context.ts";
import { answerFor } from "./errors/answers.ts";
import { issuesOf } from "./issues.ts";
import { transformer } from "./transformer.ts";

/**
 * What a procedure declares about itself. `authorized`: built by
 * `authorizedProcedure` (auth/authorize.ts), so the policy decides it; the
 * router-walk test refuses a mutation without it.
 */
export interface ProcedureMeta {
  authorized?: boolean;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    transformer,
    // Live streams: a ping keeps proxies from closing an idle stream, and the
    // client reconnects by itself when pings stop arriving.
    sse: {
      ping: { enabled: true, intervalMs: 10_000 },
      client: { reconnectAfterInactivityMs: 25_000 },
    },
    errorFormatter({ shape, error, input, ctx }) {
      const requestId = ctx?.requestId ?? null;
      const issues = issuesOf(error.cause, input)?.slice(0, MAX_REPORTED_ISSUES) ?? null;
      let message = shape.message;
      if (error.code === "INTERNAL_SERVER_ERROR")
        message = `internal error${requestId ? ` (request ${requestId})` : ""}; the details are in the server log`;
      // Stacks stay in the server log, whatever the environment.
      const { stack: _stack, ...data } = shape.data;
      return { ...shape, message, data: { ...data, issues, requestId } };
    },
  });

/** Input errors become sentences, database faults 4xx/503 answers (errors/answers.ts). */
const answers = t.middleware(async ({ next, getRawInput }) => {
  const result = await next();
  if (!result.ok) {
    const answer = answerFor(result.error, await getRawInput().catch(() => undefined));
    if (answer !== result.error) throw answer;
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(answers);
export const createCallerFactory = t.createCallerFactory;
