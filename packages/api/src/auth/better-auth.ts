/**
 * better-auth, configured for Peloton (docs/identity.md): sessions in our
 * PostgreSQL through the Prisma client, sign-in by username and password
 * (no public sign-up), and "Sign in with SSO" through any OpenID provider
 * when PELOTON_OIDC_* is set. Its endpoints are served at /api/auth/*.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "@peloton/storage";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError } from "better-auth/api";
import { type GenericOAuthUserInfo, genericOAuth } from "better-auth/plugins/generic-oauth";
import { username } from "better-auth/plugins/username";
import { authSecret } from "./secret.ts";
import type { AuthSettings } from "./settings.ts";

export const AUTH_BASE_PATH = "/api/auth";
export const SESSION_SECONDS = 7 * 24 * 3600;
/** A session used after a day is extended to another 7 days. */
export const SESSION_REFRESH_SECONDS = 24 * 3600;
/** better-auth's own limit per client address on the password sign-in endpoint. */
export const SIGN_IN_RATE = { window: 60, max: 10 } as const;

/** Logins: letters, digits, `.`, `_`, `-`; stored lower-case. */
const LOGIN_PATTERN = /^[a-z0-9][a-z0-9._-]*$/i;
const LOGIN_MAX = 64;

/** A login for someone's first OpenID sign-in: their preferred username or their email's local part, made unique. */
async function loginForProfile(db: Db, profile: GenericOAuthUserInfo): Promise<string> {
  const wanted =
    (typeof profile.preferred_username === "string" && profile.preferred_username) ||
    (typeof profile.email === "string" && profile.email.split("@")[0]) ||
    String(profile.sub ?? "user");
  const base =
    wanted
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, "_")
      .replace(/^[._-]+/, "")
      .slice(0, LOGIN_MAX - 4) || "user";
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await db.user.findUnique({ where: { login: candidate }, select: { id: true } })))
      return candidate;
  }
  return `${base.slice(0, 20)}-${randomUUID().slice(0, 8)}`;
}

function trustedOriginsFor(settings: AuthSettings) {
  return (request?: Request) => {
    const origins = [settings.publicUrl];
    // Without PELOTON_PUBLIC_URL the console is wherever the browser reached it (localhost or an address).
    if (!settings.publicUrlConfigured && request) {
      const own = requestOrigin(request);
      if (own) origins.push(own);
    }
    return origins;
  };
}

/** The origin a request was addressed to (its Host, behind a proxy X-Forwarded-Host/Proto). */
export function requestOrigin(req: Request): string | null {
  const url = new URL(req.url);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? url.host;
  const proto = req.headers.get("x-forwarded-proto") ?? url.protocol.replace(/:$/, "");
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return null;
  }
}

export function createAuth(db: Db, settings: AuthSettings) {
  const oidc = settings.oidc;
  return betterAuth({
    appName: "Peloton",
    baseURL: settings.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: authSecret(settings),
    trustedOrigins: trustedOriginsFor(settings),
    database: prismaAdapter(db, { provider: "postgresql" }),
    telemetry: { enabled: false },
    user: {
      modelName: "user",
      fields: { name: "displayName" },
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "VIEWER", input: false },
        hostMaintenance: { type: "boolean", required: false, defaultValue: false, input: false },
        disabledAt: { type: "date", required: false, input: false },
      },
    },
    session: {
      modelName: "authSession",
      expiresIn: SESSION_SECONDS,
      updateAge: SESSION_REFRESH_SECONDS,
    },
    account: { modelName: "authAccount" },
    verification: { modelName: "authVerification" },
    // Passwords are checked by the username plugin's endpoint; no one signs themselves up.
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 8,
      maxPasswordLength: 256,
    },
    // People are managed by admins (users.* procedures): nobody renames themselves (the login is
    // what the audit log records), deletes themselves, links other accounts or probes logins.
    disabledPaths: [
      "/sign-up/email",
      "/sign-in/email",
      "/request-password-reset",
      "/reset-password",
      "/update-user",
      "/change-email",
      "/delete-user",
      "/link-social",
      "/unlink-account",
      "/is-username-available",
    ],
    rateLimit: {
      enabled: true,
      storage: "memory",
      window: 60,
      max: 300,
      customRules: { "/sign-in/username": { ...SIGN_IN_RATE } },
    },
    advanced: {
      useSecureCookies: settings.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: settings.secureCookies },
      // users.id is a uuid column; the others take any string, so one generator for all.
      database: { generateId: () => randomUUID() },
    },
    databaseHooks: {
      session: {
        create: {
          // A disabled user's sessions are deleted when they are disabled; they do not get new ones.
          async before(session) {
            const user = await db.user.findUnique({
              where: { id: session.userId },
              select: { disabledAt: true },
            });
            if (!user || user.disabledAt)
              throw new APIError("FORBIDDEN", { message: "this account is disabled" });
            return { data: session };
          },
        },
      },
    },
    plugins: [
      username({
        schema: { user: { fields: { username: "login", displayUsername: "loginDisplay" } } },
        minUsernameLength: 1,
        maxUsernameLength: LOGIN_MAX,
        usernameValidator: (login) => LOGIN_PATTERN.test(login),
      }),
      ...(oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: "sso",
                  name: oidc.name,
                  discoveryUrl: oidc.discoveryUrl,
                  clientId: oidc.clientId,
                  clientSecret: oidc.clientSecret,
                  scopes: ["openid", "profile", "email"],
                  pkce: true,
                  requireIdTokenVerification: true,
                  // A first sign-in creates a viewer (the additional field's default); an admin grants more.
                  mapProfileToUser: async (profile) => ({
                    username: await loginForProfile(db, profile),
                    name:
                      (typeof profile.name === "string" && profile.name) ||
                      (typeof profile.preferred_username === "string" &&
                        profile.preferred_username) ||
                      (typeof profile.email === "string" ? profile.email : ""),
                  }),
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

export type PelotonAuth = ReturnType<typeof createAuth>;
