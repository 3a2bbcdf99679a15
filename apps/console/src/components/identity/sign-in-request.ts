/**
 * The sign-in calls to better-auth (`/api/auth/*`), and their failures in
 * words a person can act on: a wrong password says so, too many attempts
 * says how long to wait.
 */

export interface Providers {
  password: boolean;
  sso: { name: string } | null;
}

export async function fetchProviders(): Promise<Providers> {
  const res = await fetch("/api/auth/providers", { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`the server answered ${res.status}`);
  return (await res.json()) as Providers;
}

/** "too many attempts, wait 2 minutes" from a 429's Retry-After (seconds). */
export function tooManyAttempts(retryAfterSeconds: number | null): string {
  if (retryAfterSeconds === null || !Number.isFinite(retryAfterSeconds))
    return "Too many attempts: wait a few minutes, then try again.";
  if (retryAfterSeconds < 60) {
    const s = Math.max(1, Math.ceil(retryAfterSeconds));
    return `Too many attempts: wait ${s} second${s === 1 ? "" : "s"}, then try again.`;
  }
  const m = Math.ceil(retryAfterSeconds / 60);
  return `Too many attempts: wait ${m} minute${m === 1 ? "" : "s"}, then try again.`;
}

async function failure(res: Response): Promise<string> {
  if (res.status === 429) {
    const header = res.headers.get("x-retry-after") ?? res.headers.get("retry-after");
    return tooManyAttempts(header === null ? null : Number(header));
  }
  const body = (await res.json().catch(() => null)) as { message?: string; code?: string } | null;
  if (res.status === 401 || body?.code === "INVALID_USERNAME_OR_PASSWORD")
    return "Wrong user name or password.";
  if (res.status === 403 && body?.message) return body.message;
  return body?.message
    ? `Not signed in: ${body.message}`
    : `Not signed in: the server answered ${res.status}.`;
}

/** Signs in with a user name and password; resolves to an error sentence, or null once signed in. */
export async function signInWithPassword(
  username: string,
  password: string,
): Promise<string | null> {
  try {
    const res = await fetch("/api/auth/sign-in/username", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password }),
    });
    return res.ok ? null : await failure(res);
  } catch (err) {
    return `The server did not answer (${(err as Error).message}). Try again in a moment.`;
  }
}

/** Starts the OpenID sign-in: resolves to the provider's URL to go to, or an error sentence. */
export async function startSso(callbackPath: string): Promise<{ url: string } | { error: string }> {
  try {
    const res = await fetch("/api/auth/sign-in/oauth2", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        providerId: "sso",
        callbackURL: callbackPath,
        errorCallbackURL: "/sign-in",
      }),
    });
    if (!res.ok) return { error: await failure(res) };
    const body = (await res.json()) as { url?: string };
    return body.url ? { url: body.url } : { error: "The sign-in provider gave no address." };
  } catch (err) {
    return { error: `The server did not answer (${(err as Error).message}).` };
  }
}

export async function signOut(): Promise<void> {
  await fetch("/api/auth/sign-out", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
}
