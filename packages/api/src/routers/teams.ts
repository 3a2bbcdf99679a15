/**
 * Teams (console `/admin/teams`, `peloton team …`): anyone signed in reads
 * them (pools name them); admins create and delete them and change their
 * members, through the identity service (each change with its audit row).
 */
import type { TeamRecord } from "@peloton/storage";
import { actingOf, authorizedProcedure, protectedProcedure } from "../auth/authorize.ts";
import { teamCreateInput, teamMemberInput, teamNameInput } from "../schemas/identity.ts";
import { router } from "../trpc.ts";
import { unwrap } from "./identity-outcome.ts";

const manageTeam = (_ctx: unknown, input: { name?: string; team?: string }) => ({
  request: { kind: "team.manage" as const },
  target: { type: "team", id: input.name ?? input.team ?? "" },
});

function teamView(t: TeamRecord) {
  return { id: t.id, name: t.name, description: t.description, members: t.members };
}

export const teamsRouter = router({
  list: protectedProcedure.query(async ({ ctx }) =>
    (await ctx.gateway.identity.listTeams()).map(teamView),
  ),

  create: authorizedProcedure(teamCreateInput, manageTeam).mutation(async ({ ctx, input }) =>
    teamView(
      unwrap(
        await ctx.scheduler.identity.teams.create(actingOf(ctx), input.name, input.description),
      ),
    ),
  ),

  delete: authorizedProcedure(teamNameInput, manageTeam).mutation(async ({ ctx, input }) => {
    unwrap(await ctx.scheduler.identity.teams.delete(actingOf(ctx), input.name));
    return { deleted: true as const };
  }),

  addMember: authorizedProcedure(teamMemberInput, manageTeam).mutation(async ({ ctx, input }) =>
    teamView(
      unwrap(await ctx.scheduler.identity.teams.addMember(actingOf(ctx), input.team, input.login)),
    ),
  ),

  removeMember: authorizedProcedure(teamMemberInput, manageTeam).mutation(async ({ ctx, input }) =>
    teamView(
      unwrap(
        await ctx.scheduler.identity.teams.removeMember(actingOf(ctx), input.team, input.login),
      ),
    ),
  ),
});
