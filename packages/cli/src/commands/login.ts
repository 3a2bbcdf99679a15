import { hostname } from "node:os";
import { loginSchema } from "@peloton/api/schemas";
import type { Command } from "commander";
import { type ApiClient, apiUrl, createApiClient } from "../api-client.ts";
import { deleteCredentials, readCredentials, writeCredentials } from "../credentials.ts";
import { CliError } from "../errors.ts";
import { parseOption } from "../options.ts";
import { readPassword } from "../password-prompt.ts";

export interface LoginIo {
  print: (s: string) => void;
  env: NodeJS.ProcessEnv;
  /** The password's source: the terminal (no echo) or all of stdin. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** A token name that says where it came from: `cli-<host>-<UTC time>`. */
export function cliTokenName(host = hostname(), at = new Date()): string {
  const safeHost = host.replace(/[^A-Za-z0-9.-]/g, "-").slice(0, 32) || "host";
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `cli-${safeHost}-${stamp}`;
}

/** The session cookie pairs (name=value) of a sign-in answer, as a Cookie header. */
function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .filter(Boolean)
    .join("; ");
}

/** Signs in with better-auth's username endpoint; the session only lives to make a token. */
async function signIn(server: string, login: string, password: string): Promise<string> {
  const response = await fetch(`${server}/api/auth/sign-in/username`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server },
    body: JSON.stringify({ username: login, password }),
  });
  if (response.status === 401 || response.status === 403)
    throw new CliError(`sign-in refused: wrong user or password for ${login}`);
  if (response.status === 429) throw new CliError("too many sign-in attempts: wait a minute");
  if (!response.ok) throw new CliError(`sign-in failed at ${server} (HTTP ${response.status})`);
  const cookie = cookieOf(response);
  if (!cookie) throw new CliError(`sign-in at ${server} gave no session`);
  return cookie;
}

/**
 * `peloton login --user NAME [--password-stdin]`, `logout`, `whoami`: a
 * personal token made through a short console session and kept in the
 * credentials file, then sent as `Authorization: Bearer` by every command.
 */
export function registerLogin(program: Command, client: () => ApiClient, io: LoginIo): void {
  program
    .command("login")
    .description("sign in and keep a personal token for the next commands")
    .requiredOption("-u, --user <login>", "who signs in")
    .option("--password-stdin", "read the password from stdin (scripts) instead of a prompt")
    .action(async (opts: { user: string; passwordStdin?: boolean }) => {
      const login = parseOption(loginSchema, opts.user, "--user");
      const server = apiUrl(io.env);
      const password = await readPassword(
        io.stdin,
        !!opts.passwordStdin,
        `Password for ${login}: `,
      );
      if (!password) throw new CliError("no password given");
      const cookie = await signIn(server, login, password);
      const session = createApiClient(server, { kind: "session", cookie, origin: server });
      const made = await session.tokens.create.mutate({ name: cliTokenName() });
      const path = writeCredentials({ server, login, token: made.token }, io.env);
      io.print(`Signed in to ${server} as ${login} (token ${made.name}, kept in ${path})`);
    });

  program
    .command("logout")
    .description("revoke the stored token and forget it")
    .action(async () => {
      const stored = readCredentials(io.env);
      if (!stored) {
        io.print("Not signed in.");
        return;
      }
      const name = await revokeStored(stored.server, stored.token);
      deleteCredentials(io.env);
      io.print(`Signed out of ${stored.server}${name ? ` (token ${name} revoked)` : ""}`);
    });

  program
    .command("whoami")
    .description("who the API sees: login, role, teams, and how (session or which token)")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const me = await client().me.get.query();
      if (opts.json) {
        io.print(JSON.stringify(me, null, 2));
        return;
      }
      const teams = me.teams.length ? me.teams.join(", ") : "no team";
      const grant = me.hostMaintenance ? ", host maintenance" : "";
      io.print(`${me.login} (${me.displayName}): ${me.role}${grant}; ${teams}; via ${me.via}`);
    });
}

/** Revokes the stored token with itself; a token already refused is simply forgotten. */
async function revokeStored(server: string, token: string): Promise<string | null> {
  const api = createApiClient(server, { kind: "token", token });
  try {
    const me = await api.me.get.query();
    const name = me.via.startsWith("token:") ? me.via.slice("token:".length) : null;
    if (name) await api.tokens.revoke.mutate({ name });
    return name;
  } catch {
    return null;
  }
}
