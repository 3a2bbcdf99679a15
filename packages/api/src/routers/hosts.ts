/**
 * Hosts (console `/hosts`, `peloton host ...`): the cluster's machines as
 * the host manager records them, with what their tasks hold, and the
 * operator's drain and bring-up. Mutations are audited and announced.
 */
import type { HostRecord, HostStateChange } from "@peloton/storage";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import type { Context } from "../context.ts";
import { IssuesError } from "../issues.ts";
import { hostActionInput, hostListInput, hostnameSchema } from "../schemas/hosts.ts";
import { publicProcedure, router } from "../trpc.ts";

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

function refusal(
  hostname: string,
  change: Exclude<HostStateChange, { ok: true }>,
  action: string,
): TRPCError {
  if (change.kind === "not_found")
    return hostError("NOT_FOUND", "HOST_NOT_FOUND", `host ${hostname} does not exist`);
  const why =
    change.state === "DOWN"
      ? "it is DOWN; it comes back UP when its agent re-registers"
      : `it is already ${change.state}`;
  return hostError("CONFLICT", "HOST_STATE", `cannot ${action} host ${hostname}: ${why}`);
}

/** An operator's drain or bring-up: the state change and its audit row in one transaction. */
async function changeHostState(
  ctx: Context,
  input: { hostname: string; reason: string },
  to: "DRAINING" | "UP",
) {
  const verb = to === "DRAINING" ? "drain" : "bring up";
  const reason =
    input.reason || `${to === "DRAINING" ? "drained" : "brought up"} by ${ctx.actor.login}`;
  const change = await ctx.gateway.transaction(async (tx) => {
    const c = await tx.hosts.changeState(input.hostname, to, reason);
    if (c.ok) {
      await tx.audit.record({
        actor: ctx.actor.login,
        action: to === "DRAINING" ? "host.drain" : "host.up",
        targetType: "host",
        targetId: input.hostname,
        before: { state: c.before.state },
        after: { state: c.after.state, reason },
      });
    }
    return c;
  });
  if (!change.ok) throw refusal(input.hostname, change, verb);
  return view(change.after);
}

export const hostsRouter = router({
  list: publicProcedure.input(hostListInput).query(async ({ ctx, input }) => {
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

  get: publicProcedure
    .input(z.object({ hostname: hostnameSchema }))
    .query(async ({ ctx, input }) => {
      const host = await ctx.gateway.hosts.get(input.hostname);
      if (host === null)
        throw hostError("NOT_FOUND", "HOST_NOT_FOUND", `host ${input.hostname} does not exist`);
      return view(host);
    }),

  /** Values of the zone attribute with their host counts, for the filter. */
  zones: publicProcedure.query(({ ctx }) => ctx.gateway.hosts.attributeValues("zone")),

  drain: publicProcedure
    .input(hostActionInput)
    .mutation(({ ctx, input }) => changeHostState(ctx, input, "DRAINING")),

  up: publicProcedure
    .input(hostActionInput)
    .mutation(({ ctx, input }) => changeHostState(ctx, input, "UP")),
});
