/**
 * Every environment variable authentication reads, in one place
 * (docs/identity.md, "Environment"). Read once per process; the tests pass
 * their own `env`.
 */

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

type Env = Readonly<Record<string, string | undefined>>;

function publicUrlOf(env: Env): string {
  const configured = env.PELOTON_PUBLIC_URL?.trim();
  if (!configured) return `http://${env.HOST?.trim() || "127.0.0.1"}:${env.PORT?.trim() || "3000"}`;
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    throw new Error(
      `PELOTON_PUBLIC_URL must be a URL such as https://peloton.example.com, not "${configured}"`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`PELOTON_PUBLIC_URL must start with http:// or https://, not "${configured}"`);
  return url.origin;
}

function oidcOf(env: Env): OidcSettings | null {
  const issuer = env.PELOTON_OIDC_ISSUER?.trim();
  const clientId = env.PELOTON_OIDC_CLIENT_ID?.trim();
  const clientSecret = env.PELOTON_OIDC_CLIENT_SECRET?.trim();
  if (!issuer && !clientId && !clientSecret) return null;
  const missing = [
    ["PELOTON_OIDC_ISSUER", issuer],
    ["PELOTON_OIDC_CLIENT_ID", clientId],
    ["PELOTON_OIDC_CLIENT_SECRET", clientSecret],
  ]
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length || !issuer || !clientId || !clientSecret)
    throw new Error(
      `OpenID sign-in needs ${missing.join(" and ")} as well (or none of PELOTON_OIDC_*)`,
    );
  const base = issuer.replace(/\/+$/, "");
  return {
    issuer: base,
    discoveryUrl: `${base}/.well-known/openid-configuration`,
    clientId,
    clientSecret,
    name: env.PELOTON_OIDC_NAME?.trim() || "SSO",
  };
}

/** The authentication settings of `env`; throws a sentence naming the variable when one is wrong. */
export function readAuthSettings(env: Env = process.env): AuthSettings {
  const publicUrl = publicUrlOf(env);
  const secret = env.PELOTON_AUTH_SECRET?.trim() || null;
  if (secret !== null && secret.length < 32)
    throw new Error(
      "PELOTON_AUTH_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)",
    );
  const dataDir = env.PELOTON_DATA_DIR?.trim();
  return {
    publicUrl,
    publicUrlConfigured: Boolean(env.PELOTON_PUBLIC_URL?.trim()),
    secureCookies: publicUrl.startsWith("https:"),
    secret,
    secretFile: dataDir ? `${dataDir.replace(/\/+$/, "")}.auth-secret` : null,
    oidc: oidcOf(env),
  };
}
