/**
 * Teams and memberships, owned by the identity service. A team's name is
 * what pools name in `owningTeam` and `ldapGroups`; deleting a team ends its
 * memberships (pools keep the name: an admin reassigns them). Each change
 * commits with its audit row.
 */
import type { Repositories, StorageGateway, TeamRecord, UserRecord } from "@peloton/storage";
import type { Acting } from "../common/acting.ts";
import { IdentityRefusal, type IdentityResult, refusingOn } from "./outcome.ts";

async function teamOrRefuse(tx: Repositories, name: string): Promise<TeamRecord> {
  const team = await tx.identity.teamByName(name);
  if (!team)
    throw new IdentityRefusal({ kind: "not_found", field: "team", message: `no team "${name}"` });
  return team;
}

async function userOrRefuse(tx: Repositories, login: string): Promise<UserRecord> {
  const user = await tx.identity.userByLogin(login);
  if (!user)
    throw new IdentityRefusal({ kind: "not_found", field: "login", message: `no user "${login}"` });
  return user;
}

const changedMeanwhile = (name: string) => ({
  kind: "conflict" as const,
  field: "team",
  message: `team "${name}" changed meanwhile`,
});

export function createTeam(
  gateway: StorageGateway,
  acting: Acting,
  name: string,
  description = "",
): Promise<IdentityResult<TeamRecord>> {
  const duplicate = {
    kind: "duplicate" as const,
    field: "name",
    message: `a team "${name}" already exists`,
  };
  return refusingOn(duplicate, () =>
    gateway.transaction(async (tx) => {
      if (await tx.identity.teamByName(name)) throw new IdentityRefusal(duplicate);
      const team = await tx.identity.createTeam(name, description);
      await tx.audit.record({
        actor: acting.login,
        via: acting.via,
        action: "team.create",
        targetType: "team",
        targetId: name,
        after: { name, description },
      });
      return team;
    }),
  );
}

export function deleteTeam(
  gateway: StorageGateway,
  acting: Acting,
  name: string,
): Promise<IdentityResult<TeamRecord>> {
  return refusingOn(changedMeanwhile(name), () =>
    gateway.transaction(async (tx) => {
      const team = await teamOrRefuse(tx, name);
      await tx.identity.deleteTeam(team.id);
      await tx.audit.record({
        actor: acting.login,
        via: acting.via,
        action: "team.delete",
        targetType: "team",
        targetId: name,
        before: { name, description: team.description, members: team.members },
      });
      return team;
    }),
  );
}

/** Adds or removes `login` in `teamName`; adding a member twice changes nothing but is fine. */
export function changeMembership(
  gateway: StorageGateway,
  acting: Acting,
  teamName: string,
  login: string,
  change: "add" | "remove",
): Promise<IdentityResult<TeamRecord>> {
  return refusingOn(changedMeanwhile(teamName), () =>
    gateway.transaction(async (tx) => {
      const team = await teamOrRefuse(tx, teamName);
      const user = await userOrRefuse(tx, login);
      if (change === "add") await tx.identity.addMember(team.id, user.id);
      else if (!(await tx.identity.removeMember(team.id, user.id)))
        throw new IdentityRefusal({
          kind: "not_found",
          field: "login",
          message: `${login} is not a member of team "${teamName}"`,
        });
      const after = await tx.identity.teamByName(teamName);
      await tx.audit.record({
        actor: acting.login,
        via: acting.via,
        action: change === "add" ? "team.addMember" : "team.removeMember",
        targetType: "team",
        targetId: teamName,
        before: { members: team.members },
        after: { members: after?.members ?? [] },
      });
      return after ?? team;
    }),
  );
}
