import { Command } from "commander";
import { type ApiClient, apiUrl, createApiClient, storedAuth } from "./api-client.ts";
import { registerAudit } from "./commands/audit.ts";
import { registerCluster } from "./commands/cluster.ts";
import { registerHost } from "./commands/host.ts";
import { registerJob } from "./commands/job.ts";
import { registerLogin } from "./commands/login.ts";
import { registerPreemption } from "./commands/preemption.ts";
import { registerRespool } from "./commands/respool.ts";
import { registerTask } from "./commands/task.ts";
import { registerTeam } from "./commands/team.ts";
import { registerToken } from "./commands/token.ts";
import { registerUpdate } from "./commands/update.ts";
import { registerUser } from "./commands/user.ts";
import { registerVolume } from "./commands/volume.ts";

export const VERSION = "0.1.0";

export interface ProgramIo {
  print: (s: string) => void;
  /** Raw output as it comes, no newline added (a followed log, streamed CSV); default stdout. */
  write?: (chunk: string) => void;
  /** Notes beside the output (why a log cannot be read yet). */
  warn?: (s: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Where passwords are read (a prompt, or --password-stdin); default process.stdin. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** Builds the command tree; each capability registers its commands here. */
export function buildProgram(io: ProgramIo): Command {
  const program = new Command("peloton")
    .description(
      "Peloton: a unified resource scheduler (batch, stateless, stateful and daemon jobs)",
    )
    .version(VERSION, "-v, --version")
    // The program's own options (--version, --help) only before a command, so
    // a command may have a --version of its own (`respool update --version N`).
    .enablePositionalOptions()
    .addHelpText(
      "after",
      "\nThe API is read from PELOTON_URL (default: the server of `peloton login`, else http://localhost:3000).\nPELOTON_TOKEN, when set, is sent instead of the stored token.",
    )
    .showHelpAfterError()
    .exitOverride();
  let client: ApiClient | undefined;
  const lazyClient = () => {
    const url = apiUrl(io.env);
    client ??= createApiClient(url, storedAuth(url, io.env));
    return client;
  };
  const env = io.env ?? process.env;
  const stdin = io.stdin ?? process.stdin;
  registerLogin(program, lazyClient, { print: io.print, env, stdin });
  registerToken(program, lazyClient, io.print);
  registerUser(program, lazyClient, io.print, stdin);
  registerTeam(program, lazyClient, io.print);
  registerCluster(program, lazyClient, io.print);
  registerHost(program, lazyClient, io.print);
  registerVolume(program, lazyClient, io.print);
  registerRespool(program, lazyClient, io.print);
  registerAudit(program, lazyClient, io.print);
  const write = io.write ?? ((chunk: string) => process.stdout.write(chunk));
  registerJob(program, lazyClient, io.print);
  registerUpdate(program, lazyClient, io.print);
  registerTask(program, lazyClient, {
    print: io.print,
    write,
    warn: io.warn ?? ((s) => console.error(s)),
  });
  registerPreemption(program, lazyClient, io.print, { baseUrl: () => apiUrl(io.env), write });
  return program;
}
