/**
 * Personal API tokens (docs/identity.md): `pt_` and 43 base64url characters
 * (32 random bytes); only the SHA-256 is stored, the prefix is shown in lists.
 */
import { createHash, randomBytes } from "node:crypto";

export const API_TOKEN_PREFIX = "pt_";
/** `pt_` + 43 base64url characters: what a presented token must look like before any lookup. */
export const API_TOKEN_PATTERN = /^pt_[A-Za-z0-9_-]{43}$/;

export interface NewApiToken {
  /** Shown once, never stored. */
  token: string;
  /** sha256 hex of `token`: what api_tokens.token_hash keeps. */
  tokenHash: string;
  /** The first 8 characters, to tell tokens apart in a list. */
  prefix: string;
}

export function hashApiToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function newApiToken(): NewApiToken {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { token, tokenHash: hashApiToken(token), prefix: token.slice(0, 8) };
}

/** The token of `Authorization: Bearer <token>`, or null when the header is absent or another scheme. */
export function bearerToken(req: Request): string | null {
  const header = req.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
