/**
 * Hosts (console `/hosts` and `/hosts/<hostname>`, `peloton host ...`): the
 * cluster's machines as the host manager records them, with what their
 * tasks hold; a host's tasks, maintenance history and eviction progress;
 * and the operator's maintenance (Peloton's StartMaintenance and
 * CompleteMaintenance), which the host manager performs (history, audit
 * and announcement there); this router only words its outcome.
 */
import { MAINTENANCE_HOST_STATES, planEvictions } from "@peloton/engine";
import type { HostAction, HostActionFailure } from "@peloton/scheduler";
import type { HostRecord } from "@peloton/storage";
import type { TRPCError } from "@trpc/server";
import { z } from "zod";
import type { SignedInContext } from "../auth/authorize.ts";
import { actingOf, authorizedProcedure, protectedProcedure } from "../auth/authorize.ts";
import { hostActionInput, hostListInput, hostnameSchema, hostPageInput } from "../schemas/hosts.ts";
import { router } from "../trpc.ts";
import { hostAccess } from "./access.ts";
import { hostError, hostNotFound } from "./hosts.handler.ts";

/** What a client sees of a host: the record without the internal agent URL, with its IP. */
function view(h: HostRecord) {
  const { agentUrl, ...rest } = h;
  return { ...rest, ip: ipOf(agentUrl) };
}

/** The agent's IP, as Peloton's host query shows it (from its recorded endpoint). */
function ipOf(agentUrl: string | null): string | null {
  if (agentUrl === null) return null;
  try {
    return new URL(agentUrl).hostname || null;
  } catch {
    return null;
  }
}

const inMaintenance = (state: string) =>
  (MAINTENANCE_HOST_STATES as readonly string[]).includes(state);

function refusal(hostname: string, failure: HostActionFailure, action: HostAction): TRPCError {
  if (failure.kind === "not_found") return hostNotFound(hostname);
  const { state, goalState } = failure;
  if (action === "startMaintenance") {
    const why =
      state === "LOST"
        ? "it is LOST (its agent is not registered with the cluster); it comes back UP when the agent registers"
        : inMaintenance(state) && goalState === "DOWN"
          ? `it is already in maintenance (${state})`
          : goalState === "UP" && inMaintenance(state)
            ? `its maintenance is being completed (${state}, going UP)`
            : `it is ${state}`;
    return hostError(
      "CONFLICT",
      "HOST_STATE",
      `cannot start maintenance on host ${hostname}: ${why}`,
    );
  }
  const why =
    goalState === "UP" && inMaintenance(state)
      ? `its maintenance is already being completed (${state}, going UP)`
      : `it is not in maintenance (it is ${state})`;
  return hostError(
    "CONFLICT",
    "HOST_STATE",
    `cannot complete maintenance on host ${hostname}: ${why}`,
  );
}

/** An operator's start or completion of maintenance, by the host manager (one transaction). */
async function actOnHost(
  ctx: SignedInContext,
  input: { hostname: string; reason: string },
  action: HostAction,
) {
  const result = await ctx.scheduler.hosts.act(input.hostname, action, actingOf(ctx), input.reason);
  if (!result.ok) throw refusal(input.hostname, result.failure, action);
  return view(result.host);
}

async function existing(ctx: SignedInContext, hostname: string): Promise<HostRecord> {
  const host = await ctx.gateway.hosts.get(hostname);
  if (host === null) throw hostNotFound(hostname);
  return host;
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

  /** One host: state and goal, attributes, resources, what its tasks hold. */
  get: protectedProcedure
    .input(z.object({ hostname: hostnameSchema }))
    .query(async ({ ctx, input }) => view(await existing(ctx, input.hostname))),

  /** The tasks holding resources on the host now, page by page. */
  tasks: protectedProcedure.input(hostPageInput).query(async ({ ctx, input }) => {
    await existing(ctx, input.hostname);
    return ctx.gateway.hostMaintenance.tasksOn(input.hostname, input.limit, input.cursor ?? null);
  }),

  /** The host's maintenance history (starts, completions, states), newest first. */
  maintenanceHistory: protectedProcedure.input(hostPageInput).query(async ({ ctx, input }) => {
    await existing(ctx, input.hostname);
    return ctx.gateway.hostMaintenance.history(input.hostname, input.limit, input.cursor ?? null);
  }),

  /**
   * Eviction progress of a host in maintenance: tasks left, those on their
   * way out, those evictable now, and the jobs whose SLA holds the rest
   * (the maintenance loop's own plan, computed from the same rows).
   */
  evictions: protectedProcedure
    .input(z.object({ hostname: hostnameSchema }))
    .query(async ({ ctx, input }) => {
      const host = await existing(ctx, input.hostname);
      const candidates = await ctx.gateway.hostMaintenance.evictionCandidates(input.hostname);
      const plan = planEvictions(candidates);
      return {
        hostname: host.hostname,
        state: host.state,
        goalState: host.goalState,
        draining: host.state === "DRAINING" && host.goalState === "DOWN",
        tasksLeft: candidates.length,
        leaving: plan.leaving,
        evictableNow: plan.evict.length,
        waits: plan.waits,
      };
    }),

  /** Values of the zone attribute with their host counts, for the filter. */
  zones: protectedProcedure.query(({ ctx }) => ctx.gateway.hosts.attributeValues("zone")),

  /** Peloton's StartMaintenance: DRAINING now (nothing new placed), tasks evicted, then DOWN. */
  startMaintenance: authorizedProcedure(hostActionInput, (ctx, input) =>
    hostAccess(ctx, input.hostname, "startMaintenance"),
  ).mutation(({ ctx, input }) => actOnHost(ctx, input, "startMaintenance")),

  /** Peloton's CompleteMaintenance: the host goes back UP (also calls off a maintenance in progress). */
  completeMaintenance: authorizedProcedure(hostActionInput, (ctx, input) =>
    hostAccess(ctx, input.hostname, "completeMaintenance"),
  ).mutation(({ ctx, input }) => actOnHost(ctx, input, "completeMaintenance")),
});
