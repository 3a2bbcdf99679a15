/**
 * Where the policy is asked (docs/identity.md): every read is a
 * `protectedProcedure` (a signed-in actor, any role), every mutation an
 * `authorizedProcedure` whose access request is built from its input and the
 * target's stored facts, then decided by the one policy function. A refusal
 * is a 403 with the policy's sentence, changes nothing, and leaves an audit
 * row (outcome "refused") naming who tried what.
 */

import type { Acting } from "@peloton/scheduler";
import { TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { Context } from "../context.ts";
import { publicProcedure } from "../trpc.ts";
import type { Actor } from "./actor.ts";
import { channelLabel } from "./actor.ts";
import { type AccessRequest, decide } from "./policy.ts";

/** A context whose actor is known (after `protectedProcedure`). */
export type SignedInContext = Context & { actor: Actor };

/** What a mutation asks for, and what its audit row names if refused. */
export interface Access {
  request: AccessRequest;
  target: { type: string; id: string };
}

export const SIGN_IN_FIRST = "sign in first";

export const protectedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const actor = ctx.actor ?? (ctx.lookUpActor ? await ctx.lookUpActor() : null);
  if (!actor) throw new TRPCError({ code: "UNAUTHORIZED", message: SIGN_IN_FIRST });
  return next({ ctx: { ...ctx, actor } });
});

/** The audit log's action for a request: "pool.update", "job.stop", "host.drain". */
export function auditActionOf(request: AccessRequest): string {
  switch (request.kind) {
    case "job.act":
      return `job.${request.verb}`;
    case "task.act":
      return `task.${request.verb}`;
    case "update.act":
      return `update.${request.verb}`;
    case "host.act":
      return `host.${request.verb}`;
    default:
      return request.kind;
  }
}

/**
 * A mutation's procedure: signed in, input parsed by `schema`, then allowed
 * by the policy for the request `access` builds (it may read storage for the
 * target's facts, and throws NOT_FOUND when the target does not exist).
 */
export function authorizedProcedure<S extends z.ZodType>(
  schema: S,
  access: (ctx: SignedInContext, input: z.output<S>) => Access | Promise<Access>,
) {
  return protectedProcedure
    .meta({ authorized: true })
    .input(schema)
    .use(async ({ ctx, input, next }) => {
      const wanted = await access(ctx, input as z.output<S>);
      const decision = decide(ctx.actor, wanted.request);
      if (!decision.allowed) {
        await ctx.scheduler.audit.refused({
          actor: ctx.actor.login,
          via: channelLabel(ctx.actor.via),
          action: auditActionOf(wanted.request),
          targetType: wanted.target.type,
          targetId: wanted.target.id,
          reason: decision.reason,
          ...(ctx.requestId ? { requestId: ctx.requestId } : {}),
        });
        throw new TRPCError({ code: "FORBIDDEN", message: decision.reason });
      }
      return next();
    });
}

/** Who the scheduler's services record as acting: the login and how they came. */
export function actingOf(ctx: SignedInContext): Acting {
  return { login: ctx.actor.login, via: channelLabel(ctx.actor.via) };
}
