import { teamCreateInput, teamMemberInput, teamNameInput } from "@peloton/api/schemas";
import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { parseOption } from "../options.ts";
import { formatTable } from "../output.ts";

/** `peloton team list | create | delete | add-member | remove-member` (changes: admins). */
export function registerTeam(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
): void {
  const team = program
    .command("team")
    .description("teams: what pools name as owner and submitters");

  team
    .command("list")
    .description("teams with their members")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const items = await client().teams.list.query();
      if (opts.json) {
        print(JSON.stringify(items, null, 2));
        return;
      }
      if (items.length === 0) {
        print("No teams.");
        return;
      }
      print(
        formatTable(
          ["Team", "Members", "Description"],
          items.map((t) => [t.name, t.members.join(",") || "-", t.description]),
        ),
      );
    });

  team
    .command("create <name>")
    .description("add a team")
    .option("-d, --description <text>", "what the team does")
    .action(async (name: string, opts: { description?: string }) => {
      const input = parseOption(
        teamCreateInput,
        { name, ...(opts.description ? { description: opts.description } : {}) },
        "team",
      );
      const t = await client().teams.create.mutate(input);
      print(`team ${t.name} created`);
    });

  team
    .command("delete <name>")
    .description("delete a team and its memberships (pools keep naming it)")
    .action(async (name: string) => {
      await client().teams.delete.mutate(parseOption(teamNameInput, { name }, "team"));
      print(`team ${name} deleted`);
    });

  team
    .command("add-member <team> <login>")
    .description("put a user in a team")
    .action(async (teamName: string, login: string) => {
      const t = await client().teams.addMember.mutate(
        parseOption(teamMemberInput, { team: teamName, login }, "member"),
      );
      print(`team ${t.name}: ${t.members.join(", ")}`);
    });

  team
    .command("remove-member <team> <login>")
    .description("take a user out of a team")
    .action(async (teamName: string, login: string) => {
      const t = await client().teams.removeMember.mutate(
        parseOption(teamMemberInput, { team: teamName, login }, "member"),
      );
      print(`team ${t.name}: ${t.members.join(", ") || "no members"}`);
    });
}
