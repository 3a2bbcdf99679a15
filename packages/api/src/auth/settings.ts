/**
 * Every environment variable authentication reads, in one place
 * (docs/identity.md, "Environment"). Read once per process; the tests pass
 * their own `env`.
 */
import {
  type Environment,
  type RawEnvironment,
  readEnvironment,
} from "@peloton/engine/environment";

export interface OidcSettings {
  issuer: string;
  /** `<issuer>/.well-known/openid-configuration`. */
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  /** The sign-in button's label ("Sign in with <name>"). */
  name: string;
}

export interface AuthSettings {
  /** The console's origin as browsers see it: cookies, OpenID redirects, the CSRF check. */
  publicUrl: string;
  /** True when PELOTON_PUBLIC_URL was set (else the Host of a request is also trusted). */
  publicUrlConfigured: boolean;
  /** Cookies are `Secure` when the console is served over HTTPS. */
  secureCookies: boolean;
  /** PELOTON_AUTH_SECRET, when set (else secret.ts keeps a generated one). */
  secret: string | null;
  /** Where a generated secret is kept: `<data dir>.auth-secret`, or null (kept in memory only). */
  secretFile: string | null;
  oidc: OidcSettings | null;
}

const AUTH_VARIABLES = [
  "HOST",
  "PORT",
  "PELOTON_DATA_DIR",
  "PELOTON_AUTH_SECRET",
  "PELOTON_PUBLIC_URL",
  "PELOTON_OIDC_ISSUER",
  "PELOTON_OIDC_CLIENT_ID",
  "PELOTON_OIDC_CLIENT_SECRET",
  "PELOTON_OIDC_NAME",
] as const;

type AuthEnvironment = Pick<Environment, (typeof AUTH_VARIABLES)[number]>;

function oidcOf(env: AuthEnvironment): OidcSettings | null {
  const issuer = env.PELOTON_OIDC_ISSUER;
  const clientId = env.PELOTON_OIDC_CLIENT_ID;
  const clientSecret = env.PELOTON_OIDC_CLIENT_SECRET;
  if (!issuer && !clientId && !clientSecret) return null;
  if (!issuer || !clientId || !clientSecret) {
    const missing = [
      ["PELOTON_OIDC_ISSUER", issuer],
      ["PELOTON_OIDC_CLIENT_ID", clientId],
      ["PELOTON_OIDC_CLIENT_SECRET", clientSecret],
    ]
      .filter(([, v]) => !v)
      .map(([k]) => k);
    throw new Error(
      `OpenID sign-in needs ${missing.join(" and ")} as well (or none of PELOTON_OIDC_*)`,
    );
  }
  const base = issuer.replace(/\/+$/, "");
  return {
    issuer: base,
    discoveryUrl: `${base}/.well-known/openid-configuration`,
    clientId,
    clientSecret,
    name: env.PELOTON_OIDC_NAME,
  };
}

/**
 * The authentication settings of `env`, read through the one environment
 * schema (@peloton/engine/environment); throws a sentence naming each wrong
 * variable.
 */
export function readAuthSettings(env: RawEnvironment = process.env): AuthSettings {
  const vars = readEnvironment(env, AUTH_VARIABLES);
  const publicUrl = vars.PELOTON_PUBLIC_URL
    ? new URL(vars.PELOTON_PUBLIC_URL).origin
    : `http://${vars.HOST}:${vars.PORT}`;
  const dataDir = vars.PELOTON_DATA_DIR;
  return {
    publicUrl,
    publicUrlConfigured: vars.PELOTON_PUBLIC_URL !== undefined,
    secureCookies: publicUrl.startsWith("https:"),
    secret: vars.PELOTON_AUTH_SECRET ?? null,
    secretFile: dataDir ? `${dataDir.replace(/\/+$/, "")}.auth-secret` : null,
    oidc: oidcOf(vars),
  };
}
