import {
  MAX_TEAMS_PER_USER,
  userCreateInput,
  userLoginInput,
  userUpdateInput,
} from "@peloton/api/schemas";
import type { Command } from "commander";
import type { ApiClient } from "../api-client.ts";
import { parseOption } from "../options.ts";
import { formatTable } from "../output.ts";
import { allPages } from "../pages.ts";
import { readPassword } from "../password-prompt.ts";

const teamsOf = (text: string | undefined) =>
  text === undefined
    ? undefined
    : text
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean)
        .slice(0, MAX_TEAMS_PER_USER + 1);

interface UserView {
  login: string;
  displayName: string;
  role: string;
  teams: string[];
  hostMaintenance: boolean;
  disabledAt: Date | null;
}

const describe = (u: UserView) =>
  `${u.login} (${u.displayName}): ${u.role}${u.hostMaintenance ? ", host maintenance" : ""}; ${
    u.teams.length ? u.teams.join(", ") : "no team"
  }${u.disabledAt ? "; disabled" : ""}`;

/** `peloton user list | create | update | disable | enable` (admins). */
export function registerUser(
  program: Command,
  client: () => ApiClient,
  print: (s: string) => void,
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
): void {
  const user = program.command("user").description("people who may sign in (admins)");

  user
    .command("list")
    .description("users with their role, teams and state")
    .option("-q, --query <text>", "only logins or names containing this text")
    .option("--json", "print JSON")
    .action(async (opts: { query?: string; json?: boolean }) => {
      const items = await allPages(
        (cursor, limit) =>
          client().users.list.query({
            limit,
            cursor,
            ...(opts.query ? { search: opts.query } : {}),
          }),
        { pageSize: 200 },
      );
      if (opts.json) {
        print(JSON.stringify(items, null, 2));
        return;
      }
      if (items.length === 0) {
        print("No users match.");
        return;
      }
      print(
        formatTable(
          ["Login", "Name", "Role", "Teams", "Hosts", "State"],
          items.map((u) => [
            u.login,
            u.displayName,
            u.role,
            u.teams.join(",") || "-",
            u.hostMaintenance ? "yes" : "-",
            u.disabledAt ? "disabled" : "active",
          ]),
        ),
      );
    });

  user
    .command("create <login>")
    .description("add a user; the password is read from a prompt or --password-stdin")
    .requiredOption("-n, --name <displayName>", "their name as shown")
    .option("-e, --email <address>", "their email address")
    .option("-r, --role <role>", "VIEWER, OPERATOR, TEAM_LEAD or ADMIN", "VIEWER")
    .option("-t, --teams <names>", "teams, comma-separated")
    .option("--host-maintenance", "may drain hosts and bring them up")
    .option("--password-stdin", "read the password from stdin")
    .action(
      async (
        login: string,
        opts: {
          name: string;
          email?: string;
          role: string;
          teams?: string;
          hostMaintenance?: boolean;
          passwordStdin?: boolean;
        },
      ) => {
        const password = await readPassword(stdin, !!opts.passwordStdin, `Password for ${login}: `);
        const input = parseOption(
          userCreateInput,
          {
            login,
            displayName: opts.name,
            ...(opts.email ? { email: opts.email } : {}),
            role: opts.role.toUpperCase(),
            teams: teamsOf(opts.teams) ?? [],
            hostMaintenance: !!opts.hostMaintenance,
            password,
          },
          "user",
        );
        print(`created ${describe(await client().users.create.mutate(input))}`);
      },
    );

  user
    .command("update <login>")
    .description("change a user's name, role, teams or host maintenance grant")
    .option("-n, --name <displayName>", "their name as shown")
    .option("-r, --role <role>", "VIEWER, OPERATOR, TEAM_LEAD or ADMIN")
    .option("-t, --teams <names>", "all their teams, comma-separated (empty: none)")
    .option("--host-maintenance <yes|no>", "grant or take back host maintenance")
    .action(
      async (
        login: string,
        opts: { name?: string; role?: string; teams?: string; hostMaintenance?: string },
      ) => {
        const input = parseOption(
          userUpdateInput,
          {
            login,
            ...(opts.name === undefined ? {} : { displayName: opts.name }),
            ...(opts.role === undefined ? {} : { role: opts.role.toUpperCase() }),
            ...(opts.teams === undefined ? {} : { teams: teamsOf(opts.teams) }),
            ...(opts.hostMaintenance === undefined
              ? {}
              : { hostMaintenance: /^(yes|true|1)$/i.test(opts.hostMaintenance) }),
          },
          "user",
        );
        print(`updated ${describe(await client().users.update.mutate(input))}`);
      },
    );

  user
    .command("disable <login>")
    .description("stop a user signing in; their sessions end and tokens stop working at once")
    .action(async (login: string) => {
      const u = await client().users.disable.mutate(
        parseOption(userLoginInput, { login }, "login"),
      );
      print(`${u.login} is disabled`);
    });

  user
    .command("enable <login>")
    .description("let a disabled user sign in again")
    .action(async (login: string) => {
      const u = await client().users.enable.mutate(parseOption(userLoginInput, { login }, "login"));
      print(`${u.login} is enabled`);
    });
}
