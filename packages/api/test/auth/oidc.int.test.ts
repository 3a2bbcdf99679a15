/**
 * "Sign in with SSO" against a real OpenID provider (oidc-provider, started
 * here on a free port): discovery, the authorization code flow with PKCE
 * through better-auth's genericOAuth endpoints, the provider's own login and
 * consent pages (its devInteractions), and the callback creating a viewer
 * with a session. Redirects are followed by hand, as a browser would.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import Provider from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFixture, cookieOf, PUBLIC_URL } from "./support.ts";

const CLIENT = { id: "peloton-console", secret: "a-client-secret-of-some-length" };
const PEOPLE: Record<string, Record<string, unknown>> = {
  "dana-sub": {
    email: "dana@corp.test",
    email_verified: true,
    name: "Dana Scully",
    preferred_username: "Dana",
  },
};

let server: Server;
let issuer = "";
let fx: ReturnType<typeof authFixture>;

beforeAll(async () => {
  await resetDatabase();
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [`${PUBLIC_URL}/api/auth/callback/sso`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    pkce: { required: () => true },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "preferred_username"],
    },
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, ...PEOPLE[sub] }),
    }),
  });
  server.on("request", provider.callback());
  fx = authFixture({
    PELOTON_OIDC_ISSUER: issuer,
    PELOTON_OIDC_CLIENT_ID: CLIENT.id,
    PELOTON_OIDC_CLIENT_SECRET: CLIENT.secret,
    PELOTON_OIDC_NAME: "Corp SSO",
  });
});
afterAll(async () => {
  await fx?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** A browser's cookies for one site, from Set-Cookie headers. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1);
      if (/max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line))
        this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** Follows the provider's redirects until one leads back to the console; returns that URL. */
async function atProvider(start: string, jar: CookieJar, login: string): Promise<string> {
  let url = start;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(PUBLIC_URL)) return url;
    const res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(res);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location") ?? "", url).toString();
      continue;
    }
    expect(res.status).toBe(200);
    // An interaction page (devInteractions): sign in as `login`, then consent.
    const page = await res.text();
    const prompt =
      page.includes('name="password"') || page.includes('name="login"') ? "login" : "consent";
    const submitted = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(
        prompt === "login" ? { prompt, login, password: "any" } : { prompt },
      ),
    });
    jar.take(submitted);
    expect(submitted.status).toBeGreaterThanOrEqual(300);
    url = new URL(submitted.headers.get("location") ?? "", url).toString();
  }
  throw new Error("the provider never sent the browser back to the console");
}

describe("sign-in through an OpenID provider", () => {
  it("is offered under its configured name", async () => {
    const res = await fx.handler(new Request(`${PUBLIC_URL}/api/auth/providers`));
    expect(await res.json()).toEqual({ password: true, sso: { name: "Corp SSO" } });
  });

  it("creates a viewer on the first sign-in and signs them in; the second sign-in finds the same user", async () => {
    for (const round of [1, 2]) {
      const consoleJar = new CookieJar();
      const start = await fx.handler(
        new Request(`${PUBLIC_URL}/api/auth/sign-in/social`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: PUBLIC_URL },
          body: JSON.stringify({ provider: "sso", callbackURL: "/" }),
        }),
      );
      expect(start.status).toBe(200);
      consoleJar.take(start);
      const { url } = (await start.json()) as { url: string };
      const authorize = new URL(url);
      expect(authorize.origin).toBe(issuer); // from discovery
      expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authorize.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(authorize.searchParams.get("state")).toBeTruthy();

      const callback = await atProvider(url, new CookieJar(), "dana-sub");
      expect(new URL(callback).pathname).toBe("/api/auth/callback/sso");
      expect(new URL(callback).searchParams.get("code")).toBeTruthy();

      const landed = await fx.handler(
        new Request(callback, { headers: { cookie: consoleJar.header() } }),
      );
      expect(landed.status).toBe(302);
      expect(landed.headers.get("location")).toBe("/");
      consoleJar.take(landed);

      const actor = await fx.resolve(
        new Request(`${PUBLIC_URL}/api/trpc/me.get`, { headers: { cookie: consoleJar.header() } }),
      );
      expect(actor, `round ${round}`).toMatchObject({
        login: "dana",
        displayName: "Dana Scully",
        role: "VIEWER",
        teams: [],
        via: { kind: "session" },
      });
      expect(cookieOf(landed)).toContain("session_token=");
    }
    const users = await fx.db.user.findMany({
      where: { email: "dana@corp.test" },
      include: { accounts: true },
    });
    expect(users).toHaveLength(1);
    expect(users[0]?.accounts.map((a) => [a.providerId, a.accountId])).toEqual([
      ["sso", "dana-sub"],
    ]);
  });

  it("refuses a callback whose state it did not issue", async () => {
    const forged = await fx.handler(
      new Request(`${PUBLIC_URL}/api/auth/callback/sso?code=abc&state=forged`),
    );
    expect(forged.status).toBe(302);
    expect(forged.headers.get("location")).toMatch(/error=/);
    expect(cookieOf(forged)).not.toContain("session_token=");
  });
});
