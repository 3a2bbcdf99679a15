/**
 * Hosts (console `/hosts`, `peloton host ...`): the cluster's machines as
 * the host manager records them, with what their tasks hold, and the
 * operator's drain and bring-up, which the host manager performs (audited
 * and announced there); this router only words their outcome.
 */
import type { HostAction, HostActionFailure } from "@peloton/scheduler";
import type { HostRecord } from "@peloton/storage";
import type { TRPCError } from "@trpc/server";
import { z } from "zod";
import type { SignedInContext } from "../auth/authorize.ts";
import { actingOf, authorizedProcedure, protectedProcedure } from "../auth/authorize.ts";
import { hostActionInput, hostListInput, hostnameSchema } from "../schemas/hosts.ts";
import { router } from "../trpc.ts";
import { hostAccess } from "./access.ts";
import { hostError, hostNotFound } from "./hosts.handler.ts";

/** What a client sees of a host: the record without the internal agent URL. */
function view(h: HostRecord) {
  const { agentUrl: _agentUrl, ...rest } = h;
  return rest;
}

function refusal(hostname: string, failure: HostActionFailure, action: HostAction): TRPCError {
  if (failure.kind === "not_found") return hostNotFound(hostname);
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
  const result = await ctx.scheduler.hosts.act(input.hostname, action, actingOf(ctx), input.reason);
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
      if (host === null) throw hostNotFound(input.hostname);
      return view(host);
    }),

  /** Values of the zone attribute with their host counts, for the filter. */
  zones: protectedProcedure.query(({ ctx }) => ctx.gateway.hosts.attributeValues("zone")),

  drain: authorizedProcedure(hostActionInput, (ctx, input) =>
    hostAccess(ctx, input.hostname, "drain"),
  ).mutation(({ ctx, input }) => actOnHost(ctx, input, "drain")),

  up: authorizedProcedure(hostActionInput, (ctx, input) =>
    hostAccess(ctx, input.hostname, "up"),
  ).mutation(({ ctx, input }) => actOnHost(ctx, input, "up")),
});
