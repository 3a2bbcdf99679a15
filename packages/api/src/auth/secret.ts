/**
 * The secret that signs session cookies: PELOTON_AUTH_SECRET, else one
 * generated on first start and kept in `<data dir>.auth-secret` (mode 0600)
 * so that sessions survive restarts. Never logged.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { AuthSettings } from "./settings.ts";

const holder = globalThis as unknown as { __pelotonEphemeralSecret?: string };

function readKept(file: string): string | null {
  try {
    const kept = readFileSync(file, "utf8").trim();
    return kept.length >= 32 ? kept : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

export function authSecret(settings: Pick<AuthSettings, "secret" | "secretFile">): string {
  if (settings.secret) return settings.secret;
  if (!settings.secretFile) {
    // No data dir (a test, or DATABASE_URL without the launcher): sessions last as long as the process.
    holder.__pelotonEphemeralSecret ??= randomBytes(32).toString("base64url");
    return holder.__pelotonEphemeralSecret;
  }
  const kept = readKept(settings.secretFile);
  if (kept) return kept;
  const fresh = randomBytes(32).toString("base64url");
  mkdirSync(dirname(settings.secretFile), { recursive: true });
  try {
    // wx: two replicas starting at once keep the first one's secret.
    writeFileSync(settings.secretFile, `${fresh}\n`, { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const raced = readKept(settings.secretFile);
    if (raced) return raced;
    throw new Error(
      `${settings.secretFile} exists but holds no secret: delete it or set PELOTON_AUTH_SECRET`,
    );
  }
  chmodSync(settings.secretFile, 0o600);
  return fresh;
}
