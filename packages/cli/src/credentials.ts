/**
 * Where `peloton login` keeps its token: `$XDG_CONFIG_HOME/peloton/
 * credentials.json` (else ~/.config/peloton/credentials.json), readable by
 * its owner only (file 0600, folder 0700). PELOTON_TOKEN overrides it.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";

const credentialsSchema = z.object({
  server: z.string().max(2048),
  login: z.string().max(64),
  token: z.string().max(256),
});

export type Credentials = z.infer<typeof credentialsSchema>;

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "peloton", "credentials.json");
}

/** The stored credentials, or null when there are none (or the file is not ours). */
export function readCredentials(env: NodeJS.ProcessEnv = process.env): Credentials | null {
  try {
    const parsed = credentialsSchema.safeParse(
      JSON.parse(readFileSync(credentialsPath(env), "utf8")),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeCredentials(c: Credentials, env: NodeJS.ProcessEnv = process.env): string {
  const path = credentialsPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  chmodSync(dirname(path), 0o700);
  // Created 0600 (mode applies on creation), and chmod for a file that existed before.
  writeFileSync(path, `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

export function deleteCredentials(env: NodeJS.ProcessEnv = process.env): void {
  rmSync(credentialsPath(env), { force: true });
}

/** The token to send: PELOTON_TOKEN, else the stored one when it was made for this server. */
export function tokenFor(server: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.PELOTON_TOKEN) return env.PELOTON_TOKEN;
  const stored = readCredentials(env);
  return stored && stored.server === server ? stored.token : null;
}
