/**
 * Personal API tokens (docs/identity.md): `pt_` and 43 base64url characters
 * (32 random bytes). Only the SHA-256 is stored; the prefix tells tokens
 * apart in lists. (s16-auth writes this file too: on merge keep one copy.)
 */
import { createHash, randomBytes } from "node:crypto";

export interface NewApiToken {
  /** Shown once to its owner, never stored. */
  token: string;
  /** SHA-256 hex of `token` (api_tokens.token_hash). */
  tokenHash: string;
  /** Its first 8 characters. */
  prefix: string;
}

export function hashApiToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function newApiToken(): NewApiToken {
  const token = `pt_${randomBytes(32).toString("base64url")}`;
  return { token, tokenHash: hashApiToken(token), prefix: token.slice(0, 8) };
}
