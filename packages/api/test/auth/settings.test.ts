/**
 * Authentication's environment (one function), the kept secret, tokens and
 * the per-login failure count: pure, no database.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LoginFailureLimiter } from "../../src/auth/login-limit.ts";
import { hashPassword, verifyPassword } from "../../src/auth/passwords.ts";
import { authSecret } from "../../src/auth/secret.ts";
import { cookieValue, verifiedSessionToken } from "../../src/auth/session-cookie.ts";
import { readAuthSettings } from "../../src/auth/settings.ts";
import {
  API_TOKEN_PATTERN,
  bearerToken,
  hashApiToken,
  newApiToken,
} from "../../src/auth/tokens.ts";

describe("readAuthSettings", () => {
  it("defaults the public URL to http://<HOST>:<PORT>, and cookies to not Secure", () => {
    expect(readAuthSettings({})).toMatchObject({
      publicUrl: "http://127.0.0.1:3000",
      publicUrlConfigured: false,
      secureCookies: false,
      secret: null,
      secretFile: null,
      oidc: null,
    });
    expect(readAuthSettings({ HOST: "0.0.0.0", PORT: "8080" }).publicUrl).toBe(
      "http://0.0.0.0:8080",
    );
  });

  it("takes PELOTON_PUBLIC_URL's origin; https makes cookies Secure", () => {
    const s = readAuthSettings({ PELOTON_PUBLIC_URL: "https://peloton.example.com/some/path" });
    expect(s).toMatchObject({
      publicUrl: "https://peloton.example.com",
      publicUrlConfigured: true,
      secureCookies: true,
    });
  });

  it("names the variable that is wrong", () => {
    expect(() => readAuthSettings({ PELOTON_PUBLIC_URL: "peloton" })).toThrow(/PELOTON_PUBLIC_URL/);
    expect(() => readAuthSettings({ PELOTON_PUBLIC_URL: "ftp://x" })).toThrow(/PELOTON_PUBLIC_URL/);
    expect(() => readAuthSettings({ PELOTON_AUTH_SECRET: "short" })).toThrow(/PELOTON_AUTH_SECRET/);
    expect(() => readAuthSettings({ PELOTON_OIDC_ISSUER: "https://idp" })).toThrow(
      /PELOTON_OIDC_CLIENT_ID and PELOTON_OIDC_CLIENT_SECRET/,
    );
  });

  it("enables OpenID sign-in with discovery under the issuer", () => {
    const s = readAuthSettings({
      PELOTON_OIDC_ISSUER: "https://idp.example.com/realms/x/",
      PELOTON_OIDC_CLIENT_ID: "id",
      PELOTON_OIDC_CLIENT_SECRET: "secret",
    });
    expect(s.oidc).toEqual({
      issuer: "https://idp.example.com/realms/x",
      discoveryUrl: "https://idp.example.com/realms/x/.well-known/openid-configuration",
      clientId: "id",
      clientSecret: "secret",
      name: "SSO",
    });
  });

  it("keeps a generated secret beside the data dir", () => {
    const dir = mkdtempSync(join(tmpdir(), "auth-secret-"));
    expect(readAuthSettings({ PELOTON_DATA_DIR: join(dir, "postgres") }).secretFile).toBe(
      join(dir, "postgres.auth-secret"),
    );
  });
});

describe("authSecret", () => {
  it("prefers PELOTON_AUTH_SECRET", () => {
    expect(authSecret({ secret: "s".repeat(40), secretFile: "/nonexistent/x" })).toBe(
      "s".repeat(40),
    );
  });

  it("generates one secret once, kept with mode 0600, the same after a restart", () => {
    const file = join(mkdtempSync(join(tmpdir(), "auth-secret-")), "data", "postgres.auth-secret");
    const first = authSecret({ secret: null, secretFile: file });
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(authSecret({ secret: null, secretFile: file })).toBe(first);
  });
});

describe("tokens", () => {
  it("are pt_ and 43 base64url characters, stored as their sha256, listed by their first 8 characters", () => {
    const a = newApiToken();
    expect(a.token).toMatch(API_TOKEN_PATTERN);
    expect(a.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.tokenHash).toBe(hashApiToken(a.token));
    expect(a.prefix).toBe(a.token.slice(0, 8));
    expect(newApiToken().token).not.toBe(a.token);
  });

  it("are read from Authorization: Bearer only", () => {
    const req = (authorization?: string) =>
      new Request("http://x/", authorization ? { headers: { authorization } } : {});
    expect(bearerToken(req("Bearer pt_abc"))).toBe("pt_abc");
    expect(bearerToken(req("bearer  pt_abc "))).toBe("pt_abc");
    expect(bearerToken(req("Basic dXNlcjpwYXNz"))).toBeNull();
    expect(bearerToken(req())).toBeNull();
  });
});

describe("passwords", () => {
  it("verify against their scrypt hash", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword(hash, "correct horse")).toBe(true);
    expect(await verifyPassword(hash, "wrong")).toBe(false);
  });
});

describe("LoginFailureLimiter", () => {
  it("refuses after max failures in the window, until the oldest ages out; a success clears", () => {
    let now = 0;
    const limiter = new LoginFailureLimiter({ max: 3, windowMs: 1000 }, () => now);
    for (const t of [0, 100, 200]) {
      now = t;
      expect(limiter.retryAfterSeconds("a")).toBe(0);
      limiter.recordFailure("a");
    }
    expect(limiter.retryAfterSeconds("a")).toBe(1);
    expect(limiter.retryAfterSeconds("b")).toBe(0);
    now = 1001;
    expect(limiter.retryAfterSeconds("a")).toBe(0);
    limiter.recordFailure("a");
    limiter.recordSuccess("a");
    expect(limiter.retryAfterSeconds("a")).toBe(0);
  });
});

describe("the session cookie", () => {
  it("is found by name in a Cookie header and URL-decoded", () => {
    expect(
      cookieValue("a=1; better-auth.session_token=t%2Eok; b=2", "better-auth.session_token"),
    ).toBe("t.ok");
    expect(cookieValue("a=1", "better-auth.session_token")).toBeNull();
    expect(cookieValue(null, "x")).toBeNull();
  });

  it("yields its token only under the secret's signature", () => {
    const secret = "s".repeat(40);
    const signature = createHmac("sha256", secret).update("tok").digest("base64");
    expect(verifiedSessionToken(`tok.${signature}`, secret)).toBe("tok");
    expect(verifiedSessionToken(`tok.${signature}`, "t".repeat(40))).toBeNull();
    expect(verifiedSessionToken(`other.${signature}`, secret)).toBeNull();
    expect(verifiedSessionToken("tok", secret)).toBeNull();
  });
});
