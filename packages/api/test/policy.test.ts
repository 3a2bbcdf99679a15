/**
 * The policy as a table (docs/identity.md "Roles and teams"): every role ×
 * every access kind × the actor in the target's team, in another team, in
 * none → allowed, or refused with the exact sentence the API answers and the
 * console shows.
 */
import { ROLES, type Role } from "@peloton/engine";
import { describe, expect, it } from "vitest";
import {
  type AccessKind,
  type AccessRequest,
  decide,
  type PolicyActor,
  type PoolFacts,
} from "../src/auth/policy.ts";

/** /ml: owned by team ml, which lets team research submit too. */
const ML: PoolFacts = { path: "/ml", owningTeam: "ml", ldapGroups: ["research"] };
const SELF = "00000000-0000-4000-8000-000000000001";
const SOMEONE_ELSE = "00000000-0000-4000-8000-000000000002";

type Membership = "own team" | "other team" | "no team";
const MEMBERSHIPS: Record<Membership, string[]> = {
  "own team": ["ml"],
  "other team": ["web"],
  "no team": [],
};

function actor(role: Role, membership: Membership, hostMaintenance = false): PolicyActor {
  return { userId: SELF, login: "pat", role, teams: MEMBERSHIPS[membership], hostMaintenance };
}

/** One request of each kind, on /ml (or, for people and tokens, someone else's). */
const REQUESTS: Record<AccessKind, AccessRequest> = {
  "pool.create": { kind: "pool.create", parent: ML },
  "pool.update": { kind: "pool.update", pool: ML, newOwningTeam: "ml" },
  "pool.delete": { kind: "pool.delete", pool: ML },
  "job.create": { kind: "job.create", pool: ML },
  "job.act": { kind: "job.act", verb: "stop", pool: ML },
  "task.act": { kind: "task.act", verb: "restart", pool: ML },
  "update.act": { kind: "update.act", verb: "pause", pool: ML },
  "host.act": { kind: "host.act", verb: "drain", hostname: "node-01" },
  "token.manage": { kind: "token.manage", ownerUserId: SOMEONE_ELSE },
  "token.list": { kind: "token.list", ownerUserId: SOMEONE_ELSE },
  "user.manage": { kind: "user.manage" },
  "user.list": { kind: "user.list" },
  "team.manage": { kind: "team.manage" },
};

const OK = "allowed";
const lead = (verb: string) => `only leads of the owning team "ml" may ${verb} /ml`;
const operate = (role: Role, membership: Membership, verb: string): string => {
  if (role === "VIEWER") return `a viewer may not ${verb}; operators of teams "research", "ml" may`;
  return membership === "own team" ? OK : `only teams "research", "ml" may ${verb} in /ml`;
};

/** The table's expected column: "allowed" or the refusal's sentence. */
function expected(role: Role, membership: Membership, kind: AccessKind): string {
  const admin = role === "ADMIN";
  const teamLead = role === "TEAM_LEAD" && membership === "own team";
  switch (kind) {
    case "pool.create":
      return admin || teamLead ? OK : lead("create pools under");
    case "pool.update":
      return admin || teamLead ? OK : lead("edit");
    case "pool.delete":
      return admin || teamLead ? OK : lead("delete");
    case "job.create":
      return admin ? OK : operate(role, membership, "submit jobs");
    case "job.act":
      return admin ? OK : operate(role, membership, "stop jobs");
    case "task.act":
      return admin ? OK : operate(role, membership, "restart tasks");
    case "update.act":
      return admin ? OK : operate(role, membership, "pause updates");
    case "host.act":
      return admin ? OK : "only admins and people granted host maintenance may drain hosts";
    case "token.manage":
    case "token.list":
      return admin ? OK : "only admins may manage another person's tokens";
    case "user.manage":
    case "user.list":
      return admin ? OK : "only admins may manage users";
    case "team.manage":
      return admin ? OK : "only admins may manage teams";
  }
}

const outcome = (a: PolicyActor, r: AccessRequest): string => {
  const d = decide(a, r);
  return d.allowed ? OK : d.reason;
};

const TABLE = ROLES.flatMap((role) =>
  (Object.keys(MEMBERSHIPS) as Membership[]).flatMap((membership) =>
    (Object.keys(REQUESTS) as AccessKind[]).map(
      (kind) => [role, membership, kind, expected(role, membership, kind)] as const,
    ),
  ),
);

describe("decide: role × access kind × team", () => {
  it("covers every role, kind and membership", () => {
    expect(TABLE).toHaveLength(4 * 13 * 3);
  });

  it.each(TABLE)("%s in %s: %s → %s", (role, membership, kind, want) => {
    expect(outcome(actor(role, membership), REQUESTS[kind])).toBe(want);
  });
});

describe("decide: the cases beside the table", () => {
  it("a team in ldapGroups may submit and act, but not edit the pool", () => {
    const researcher: PolicyActor = { ...actor("TEAM_LEAD", "no team"), teams: ["research"] };
    expect(outcome(researcher, REQUESTS["job.create"])).toBe(OK);
    expect(outcome(researcher, REQUESTS["job.act"])).toBe(OK);
    expect(outcome(researcher, REQUESTS["pool.update"])).toBe(lead("edit"));
  });

  it("host maintenance lets any role drain and bring up hosts", () => {
    for (const role of ROLES)
      for (const verb of ["drain", "up"] as const)
        expect(
          outcome(actor(role, "no team", true), { kind: "host.act", verb, hostname: "node-01" }),
        ).toBe(OK);
    expect(
      outcome(actor("OPERATOR", "own team"), { kind: "host.act", verb: "up", hostname: "n" }),
    ).toBe("only admins and people granted host maintenance may bring up hosts");
  });

  it("everyone manages and lists their own tokens", () => {
    for (const role of ROLES) {
      expect(outcome(actor(role, "no team"), { kind: "token.manage", ownerUserId: SELF })).toBe(OK);
      expect(outcome(actor(role, "no team"), { kind: "token.list", ownerUserId: SELF })).toBe(OK);
    }
  });

  it("a pool without an owning team is admins' only", () => {
    const bare: PoolFacts = { path: "/shared", owningTeam: "", ldapGroups: ["ml"] };
    expect(outcome(actor("TEAM_LEAD", "own team"), { kind: "pool.delete", pool: bare })).toBe(
      "only admins may delete /shared: it has no owning team",
    );
    expect(outcome(actor("ADMIN", "no team"), { kind: "pool.delete", pool: bare })).toBe(OK);
    // ldapGroups still let its teams submit.
    expect(outcome(actor("OPERATOR", "own team"), { kind: "job.create", pool: bare })).toBe(OK);
    expect(outcome(actor("OPERATOR", "other team"), { kind: "job.create", pool: bare })).toBe(
      'only team "ml" may submit jobs in /shared',
    );
  });

  it("a lead keeps a pool in their teams; only admins give it away or leave it unowned", () => {
    const ownLead: PolicyActor = { ...actor("TEAM_LEAD", "own team"), teams: ["ml", "infra"] };
    const update = (newOwningTeam: string): AccessRequest => ({
      kind: "pool.update",
      pool: ML,
      newOwningTeam,
    });
    expect(outcome(ownLead, update("infra"))).toBe(OK);
    expect(outcome(ownLead, update("web"))).toBe('only admins may give /ml to team "web"');
    expect(outcome(ownLead, update(""))).toBe("only admins may leave /ml without an owning team");
    expect(outcome(actor("ADMIN", "no team"), update("web"))).toBe(OK);
  });

  it("a job's owner string decides nothing: the request carries no owner", () => {
    const viewer = actor("VIEWER", "own team");
    expect(outcome(viewer, { kind: "job.act", verb: "delete", pool: ML })).toBe(
      'a viewer may not delete jobs; operators of teams "research", "ml" may',
    );
  });
});
