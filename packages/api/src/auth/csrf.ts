/**
 * CSRF for the tRPC edge (docs/identity.md): a mutation authenticated by the
 * session cookie must come from the console's own pages, which browsers prove
 * with the `Origin` header they always send on a POST. Requests with
 * `Authorization: Bearer` are exempt: a browser never adds that header to a
 * cross-site request by itself. better-auth checks its own endpoints
 * (trustedOrigins in better-auth.ts).
 */
import { requestOrigin } from "./better-auth.ts";
import type { AuthSettings } from "./settings.ts";
import { bearerToken } from "./tokens.ts";

export const CSRF_REFUSAL = "cross-site request refused";

/** The origins a cookie-authenticated mutation may come from. */
export function allowedOrigins(
  req: Request,
  settings: Pick<AuthSettings, "publicUrl" | "publicUrlConfigured">,
): string[] {
  const own = settings.publicUrlConfigured ? null : requestOrigin(req);
  return own && own !== settings.publicUrl ? [settings.publicUrl, own] : [settings.publicUrl];
}

/**
 * True when `req` must be refused: a POST (tRPC's mutations; queries and
 * subscriptions are GETs) that carries a cookie and no Bearer token, from a
 * missing or foreign Origin.
 */
export function isCrossSiteMutation(
  req: Request,
  settings: Pick<AuthSettings, "publicUrl" | "publicUrlConfigured">,
): boolean {
  if (req.method !== "POST") return false;
  if (bearerToken(req) !== null) return false;
  if (!req.headers.get("cookie")) return false;
  const origin = req.headers.get("origin");
  return origin === null || !allowedOrigins(req, settings).includes(origin);
}
