/**
 * The targets' facts the policy decides from (docs/identity.md), read from
 * storage before a mutation runs: a pool's owning team and ldapGroups, a
 * job's (or a task's job's) pool, a new pool's parent, a host by name. A
 * missing target is the NOT_FOUND the mutation itself would answer, worded
 * by the same handler, so that a refusal never hides that it does not exist.
 */
import { parentPath } from "@peloton/engine";
import type { PoolPolicyFacts } from "@peloton/storage";
import type { Access, SignedInContext } from "../auth/authorize.ts";
import type { HostVerb, JobVerb, PoolFacts, TaskVerb, UpdateVerb } from "../auth/policy.ts";
import { hostNotFound } from "./hosts.handler.ts";
import { jobNotFound } from "./jobs.handler.ts";
import { failureError, notFound } from "./pools.handler.ts";
import { updateNotFound } from "./updates.handler.ts";

function factsOf(pool: PoolPolicyFacts): PoolFacts {
  return { path: pool.path, owningTeam: pool.owningTeam, ldapGroups: pool.ldapGroups };
}

/** The root before anything created it: it has no owning team, so only admins act under it. */
const UNOWNED_ROOT: PoolFacts = { path: "/", owningTeam: "", ldapGroups: [] };

/** An existing pool's facts, or the mutation's own "no such pool". */
export async function poolFacts(ctx: SignedInContext, path: string): Promise<PoolFacts> {
  const pool = await ctx.gateway.pools.facts(path);
  if (pool === null) throw notFound(path);
  return factsOf(pool);
}

/** The facts of the pool a new pool goes under (its parent decides who may create it). */
export async function parentFacts(ctx: SignedInContext, path: string): Promise<PoolFacts> {
  // A valid path always has a parent ("/" for a top-level pool); the root has none.
  const parent = parentPath(path) ?? "/";
  const pool = await ctx.gateway.pools.facts(parent);
  if (pool !== null) return factsOf(pool);
  if (parent === "/") return UNOWNED_ROOT;
  // Worded as the create itself words it (the respool rules' PARENT_NOT_FOUND).
  throw failureError({
    kind: "invalid",
    errors: [{ code: "PARENT_NOT_FOUND", pool: path, values: { parent } }],
  });
}

/** The facts of the pool a job runs in (one read); NOT_FOUND when there is no such job. */
export async function jobPoolFacts(ctx: SignedInContext, jobId: string): Promise<PoolFacts> {
  const pool = await ctx.gateway.jobs.poolFacts(jobId);
  if (pool === null) throw jobNotFound(jobId);
  return factsOf(pool);
}

export async function jobAccess(
  ctx: SignedInContext,
  jobId: string,
  verb: JobVerb,
): Promise<Access> {
  return {
    request: { kind: "job.act", verb, pool: await jobPoolFacts(ctx, jobId) },
    target: { type: "job", id: jobId },
  };
}

export async function taskAccess(
  ctx: SignedInContext,
  jobId: string,
  verb: TaskVerb,
): Promise<Access> {
  return {
    request: { kind: "task.act", verb, pool: await jobPoolFacts(ctx, jobId) },
    target: { type: "job", id: jobId },
  };
}

export async function hostAccess(
  ctx: SignedInContext,
  hostname: string,
  verb: HostVerb,
): Promise<Access> {
  if ((await ctx.gateway.hosts.get(hostname)) === null) throw hostNotFound(hostname);
  return { request: { kind: "host.act", verb, hostname }, target: { type: "host", id: hostname } };
}

/** Acting on a job's update: the same right as acting on the job (its pool decides). */
export async function jobUpdateAccess(
  ctx: SignedInContext,
  jobId: string,
  verb: UpdateVerb,
): Promise<Access> {
  return {
    request: { kind: "update.act", verb, pool: await jobPoolFacts(ctx, jobId) },
    target: { type: "job", id: jobId },
  };
}

/** An existing update's job decides; NOT_FOUND when there is no such update. */
export async function updateAccess(
  ctx: SignedInContext,
  updateId: string,
  verb: UpdateVerb,
): Promise<Access> {
  const update = await ctx.gateway.updates.get(updateId);
  if (update === null) throw updateNotFound(updateId);
  return {
    request: { kind: "update.act", verb, pool: await jobPoolFacts(ctx, update.jobId) },
    target: { type: "update", id: updateId },
  };
}
