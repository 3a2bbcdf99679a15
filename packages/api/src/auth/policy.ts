/**
 * The one policy (docs/identity.md): may this actor do this? Pure: it decides
 * from the actor (role, teams, grants) and the facts of the target that the
 * caller read beforehand (a pool's owning team and ldapGroups), never from
 * strings the request carries (a job's `owner`). Asked by the tRPC middleware
 * for every mutation (authorize.ts), by the other APIs, and by the console to
 * show an action it may not take disabled with the same sentence.
 */
import { ROLE_LABELS, type Role, roleAtLeast } from "@peloton/engine";

/** The actor fields the policy reads (auth/actor.ts's Actor has them all). */
export interface PolicyActor {
  userId: string;
  login: string;
  role: Role;
  teams: readonly string[];
  hostMaintenance: boolean;
}

/** The facts of a pool that decide who may act in it. */
export interface PoolFacts {
  path: string;
  /** The team that owns the pool ("" when none: only admins edit it). */
  owningTeam: string;
  /** Teams that may submit to it besides the owning team (Peloton's field name). */
  ldapGroups: readonly string[];
}

export type JobVerb = "stop" | "start" | "restart" | "delete" | "scale";
export type TaskVerb = "stop" | "start" | "restart";
export type HostVerb = "drain" | "up";
/** What is done to a job's update: the same right as acting on the job itself. */
export type UpdateVerb = "create" | "pause" | "resume" | "abort" | "rollback";

/** Everything that changes state, with the facts each decision needs. */
export type AccessRequest =
  | { kind: "pool.create"; parent: PoolFacts }
  | { kind: "pool.update"; pool: PoolFacts; newOwningTeam?: string | undefined }
  | { kind: "pool.delete"; pool: PoolFacts }
  | { kind: "job.create"; pool: PoolFacts }
  | { kind: "job.act"; verb: JobVerb; pool: PoolFacts }
  | { kind: "task.act"; verb: TaskVerb; pool: PoolFacts }
  | { kind: "update.act"; verb: UpdateVerb; pool: PoolFacts }
  | { kind: "host.act"; verb: HostVerb; hostname: string }
  /** A token of `ownerUserId` (create, revoke) or the list of someone's tokens. */
  | { kind: "token.manage"; ownerUserId: string }
  | { kind: "token.list"; ownerUserId: string }
  /** Create, change, disable users; grant roles and host maintenance. */
  | { kind: "user.manage" }
  | { kind: "user.list" }
  /** Create, rename, delete teams; add and remove members. */
  | { kind: "team.manage" };

export type AccessKind = AccessRequest["kind"];

export type Decision = { allowed: true } | { allowed: false; reason: string };

const ALLOWED: Decision = { allowed: true };
const refuse = (reason: string): Decision => ({ allowed: false, reason });

/** The teams that may submit to a pool: its owner always, and its ldapGroups. */
export function submittingTeams(pool: PoolFacts): string[] {
  const teams = new Set(pool.ldapGroups);
  if (pool.owningTeam) teams.add(pool.owningTeam);
  return [...teams];
}

function teamList(teams: readonly string[]): string {
  if (teams.length === 0) return "no team";
  const quoted = teams.map((t) => `"${t}"`);
  return quoted.length === 1 ? `team ${quoted[0]}` : `teams ${quoted.join(", ")}`;
}

const isAdmin = (a: PolicyActor) => a.role === "ADMIN";
const inTeam = (a: PolicyActor, team: string) => team !== "" && a.teams.includes(team);

/** Team leads of the owning team (and admins) may change a pool. */
function mayLead(a: PolicyActor, pool: PoolFacts, verb: string): Decision {
  if (isAdmin(a)) return ALLOWED;
  if (!pool.owningTeam)
    return refuse(`only admins may ${verb} ${pool.path}: it has no owning team`);
  if (roleAtLeast(a.role, "TEAM_LEAD") && inTeam(a, pool.owningTeam)) return ALLOWED;
  return refuse(`only leads of the owning team "${pool.owningTeam}" may ${verb} ${pool.path}`);
}

/** Operators (and above) of a submitting team (and admins) may run work in a pool. */
function mayOperate(a: PolicyActor, pool: PoolFacts, verb: string): Decision {
  if (isAdmin(a)) return ALLOWED;
  const teams = submittingTeams(pool);
  if (!roleAtLeast(a.role, "OPERATOR"))
    return refuse(`a ${ROLE_LABELS[a.role]} may not ${verb}; operators of ${teamList(teams)} may`);
  if (teams.some((t) => inTeam(a, t))) return ALLOWED;
  return refuse(`only ${teamList(teams)} may ${verb} in ${pool.path}`);
}

const JOB_VERBS: Record<JobVerb, string> = {
  stop: "stop jobs",
  start: "start jobs",
  restart: "restart jobs",
  delete: "delete jobs",
  scale: "scale jobs",
};
const UPDATE_VERBS: Record<UpdateVerb, string> = {
  create: "update jobs",
  pause: "pause updates",
  resume: "resume updates",
  abort: "abort updates",
  rollback: "roll back updates",
};
const HOST_VERBS: Record<HostVerb, string> = { drain: "drain", up: "bring up" };
const TASK_VERBS: Record<TaskVerb, string> = {
  stop: "stop tasks",
  start: "start tasks",
  restart: "restart tasks",
};

export function decide(actor: PolicyActor, request: AccessRequest): Decision {
  switch (request.kind) {
    case "pool.create":
      return mayLead(actor, request.parent, "create pools under");
    case "pool.update": {
      const lead = mayLead(actor, request.pool, "edit");
      if (!lead.allowed || isAdmin(actor)) return lead;
      const next = request.newOwningTeam;
      if (next !== undefined && next !== request.pool.owningTeam && !inTeam(actor, next))
        return refuse(
          next === ""
            ? `only admins may leave ${request.pool.path} without an owning team`
            : `only admins may give ${request.pool.path} to team "${next}"`,
        );
      return ALLOWED;
    }
    case "pool.delete":
      return mayLead(actor, request.pool, "delete");
    case "job.create":
      return mayOperate(actor, request.pool, "submit jobs");
    case "job.act":
      return mayOperate(actor, request.pool, JOB_VERBS[request.verb]);
    case "task.act":
      return mayOperate(actor, request.pool, TASK_VERBS[request.verb]);
    case "update.act":
      return mayOperate(actor, request.pool, UPDATE_VERBS[request.verb]);
    case "host.act":
      if (isAdmin(actor) || actor.hostMaintenance) return ALLOWED;
      return refuse(
        `only admins and people granted host maintenance may ${HOST_VERBS[request.verb]} hosts`,
      );
    case "token.manage":
    case "token.list":
      if (actor.userId === request.ownerUserId || isAdmin(actor)) return ALLOWED;
      return refuse("only admins may manage another person's tokens");
    case "user.manage":
    case "user.list":
      return isAdmin(actor) ? ALLOWED : refuse("only admins may manage users");
    case "team.manage":
      return isAdmin(actor) ? ALLOWED : refuse("only admins may manage teams");
  }
}
