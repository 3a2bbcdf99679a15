/**
 * Hosts (console `/hosts`, `peloton host ...`): the cluster's machines as
 * the host manager records them, with what their tasks hold, and the
 * operator's drain and bring-up, which the host manager performs (audited
 * and announced there); this router only words their outcome.
 */
import type { HostAction, HostActionFailure } from "@peloton/scheduler";
import type { HostRecord } from "@peloton/storage";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import type { SignedInContext } from "../auth/authorize.ts";
import { protectedProcedure } from "../auth/authorize.ts";
import { IssuesError } from "../issues.ts";
import { hostActionInput, hostListInput, hostnameSchema } from "../schemas/hosts.ts";
import { router } from "../trpc.ts";

/** A refusal about the host named in the input: the message, and the issue on `hostname`. */
function hostError(code: TRPCError["code"], issueCode: string, message: string): TRPCError {
  return new TRPCError({
    code,
    message,
    cause: new IssuesError([{ field: "hostname", code: issueCode, message }]),
  });
}

/** What a client sees of a host: the record without the internal agent URL. */
function view(h: HostRecord) {
  const { agentUrl: _agentUrl, ...rest } = h;
  return rest;
}

function refusal(hostname: string, failure: HostActionFailure, action: HostAction): TRPCError {
  if (failure.kind === "not_found")
    return hostError("NOT_FOUND", "HOST_NOT_FOUND", `host ${hostname} does not exist`);
  const why =
    failure.state === "DOWN"
      ? "it is DOWN; it comes back UP when its agent re-registers"
      : `it is already ${failure.state}`;
  const verb = action === "drain" ? "drain" : "bring up";
  return hostError("CONFLICT", "HOST_STATE", `cannot ${verb} host ${hostname}: ${why}`);
}

/** An operator's drain or bring-up, by the host manager (state and audit row in one transaction). */
async function actOnHost(
  ctx: SignedInContext,
  input: { hostname: string; reason: string },
  action: HostAction,
) {
  const result = await ctx.scheduler.hosts.act(
    input.hostname,
    action,
    ctx.actor.login,
    input.reason,
  );
  if (!result.ok) throw refusal(input.hostname, result.failure, action);
  return view(result.host);
}

export const hostsRouter = router({
  list: protectedProcedure.input(hostListInput).query(async ({ ctx, input }) => {
    const page = await ctx.gateway.hosts.list({
      states: input.states,
      attributes: input.attributes,
      text: input.text,
      sort: input.sort,
      order: input.order,
      limit: input.limit,
      cursor: input.cursor ?? null,
    });
    return { items: page.items.map(view), nextCursor: page.nextCursor };
  }),

  get: protectedProcedure
    .input(z.object({ hostname: hostnameSchema }))
    .query(async ({ ctx, input }) => {
      const host = await ctx.gateway.hosts.get(input.hostname);
      if (host === null)
        throw hostError("NOT_FOUND", "HOST_NOT_FOUND", `host ${input.hostname} does not exist`);
      return view(host);
    }),

  /** Values of the zone attribute with their host counts, for the filter. */
  zones: protectedProcedure.query(({ ctx }) => ctx.gateway.hosts.attributeValues("zone")),

  drain: protectedProcedure
    .input(hostActionInput)
    .mutation(({ ctx, input }) => actOnHost(ctx, input, "drain")),

  up: protectedProcedure
    .input(hostActionInput)
    .mutation(({ ctx, input }) => actOnHost(ctx, input, "up")),
});
