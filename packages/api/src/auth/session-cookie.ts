/**
 * better-auth's session cookie, read without a round trip through its
 * endpoint: the cookie is `<token>.<base64 HMAC-SHA256(secret, token)>`
 * (better-call's signed cookies); we check the signature with the same
 * secret and cookie name better-auth uses (from its context), so the actor
 * lookup can be one query (resolve.ts). The sign-in tests prove the two agree.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The value of cookie `name` in a Cookie header, URL-decoded; null when absent. */
export function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

/** The session token of a signed cookie value, or null when its signature is not `secret`'s. */
export function verifiedSessionToken(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const token = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  const expected = createHmac("sha256", secret).update(token).digest();
  const presented = Buffer.from(signature, "base64");
  return presented.length === expected.length && timingSafeEqual(presented, expected)
    ? token
    : null;
}
