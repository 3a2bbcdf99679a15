/**
 * The edge's CSRF check (cookie-authenticated mutations need the console's
 * Origin; Bearer requests are exempt) and the two sign-in limits: per login
 * (ours) and per address (better-auth's).
 */

import { testContext } from "@peloton/test-support/api/context.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_RATE } from "../../src/auth/better-auth.ts";
import { CSRF_REFUSAL, isCrossSiteMutation } from "../../src/auth/csrf.ts";
import { LOGIN_FAILURE_LIMIT } from "../../src/auth/login-limit.ts";
import { readAuthSettings } from "../../src/auth/settings.ts";
import { newApiToken } from "../../src/auth/tokens.ts";
import { createTrpcEdge } from "../../src/server/edge.ts";
import {
  authFixture,
  cookieOf,
  createPerson,
  freshAddress,
  PUBLIC_URL,
  signIn,
} from "./support.ts";

const fx = authFixture();
const ctx = testContext();
const edge = createTrpcEdge({
  createContext: async (req) => ({
    gateway: ctx.gateway,
    scheduler: ctx.scheduler,
    changes: ctx.changes,
    actor: await fx.resolve(req),
  }),
  refuseCrossSite: (req) => (isCrossSiteMutation(req, fx.settings) ? CSRF_REFUSAL : null),
  log: () => undefined,
});

let cookie = "";
let token = "";
beforeAll(async () => {
  await resetDatabase();
  const user = await createPerson(fx.db, {
    login: "alice",
    password: "correct horse",
    role: "ADMIN",
  });
  await createPerson(fx.db, { login: "target", password: "target's password" });
  cookie = cookieOf(await signIn(fx.handler, "alice", "correct horse"));
  const minted = newApiToken();
  await fx.db.apiToken.create({
    data: { userId: user.id, name: "ci", tokenHash: minted.tokenHash, prefix: minted.prefix },
  });
  token = minted.token;
});
afterAll(async () => {
  await ctx.close();
  await fx.close();
});

/** A mutation (its input is wrong on purpose: past the CSRF check it answers 400, never a change). */
function mutation(headers: Record<string, string>) {
  return edge(
    new Request(`${PUBLIC_URL}/api/trpc/pools.delete`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ json: { nonsense: true } }),
    }),
  );
}
const messageOf = async (res: Response) =>
  ((await res.json()) as { error: { json: { message: string } } }).error.json.message;

describe("CSRF on tRPC mutations", () => {
  it("refuses a cookie-authenticated mutation without an Origin", async () => {
    const res = await mutation({ cookie });
    expect(res.status).toBe(403);
    expect(await messageOf(res)).toBe(CSRF_REFUSAL);
  });

  it("refuses one from a foreign Origin", async () => {
    const res = await mutation({ cookie, origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await messageOf(res)).toBe(CSRF_REFUSAL);
  });

  it("lets one from the console's own Origin through", async () => {
    const res = await mutation({ cookie, origin: PUBLIC_URL });
    expect(res.status).toBe(400);
  });

  it("exempts Bearer requests, whatever their Origin", async () => {
    expect((await mutation({ authorization: `Bearer ${token}` })).status).toBe(400);
    const foreign = await mutation({
      authorization: `Bearer ${token}`,
      origin: "https://evil.example",
      cookie,
    });
    expect(foreign.status).toBe(400);
  });

  it("leaves queries (GET) alone", async () => {
    const res = await edge(
      new Request(`${PUBLIC_URL}/api/trpc/system.health`, { headers: { cookie } }),
    );
    expect(res.status).not.toBe(403);
  });

  it("without PELOTON_PUBLIC_URL, accepts the origin the request was addressed to", () => {
    const settings = readAuthSettings({ PORT: "4000" });
    const req = (origin: string) =>
      new Request("http://10.1.2.3:4000/api/trpc/pools.delete", {
        method: "POST",
        headers: { cookie, origin, host: "10.1.2.3:4000" },
      });
    expect(isCrossSiteMutation(req("http://10.1.2.3:4000"), settings)).toBe(false);
    expect(isCrossSiteMutation(req("http://127.0.0.1:4000"), settings)).toBe(false);
    expect(isCrossSiteMutation(req("http://10.1.2.3:4001"), settings)).toBe(true);
  });
});

describe("sign-in limits", () => {
  it(`refuses a login after ${LOGIN_FAILURE_LIMIT.max} failures, from any address, even with the right password`, async () => {
    for (let i = 0; i < LOGIN_FAILURE_LIMIT.max; i++)
      expect((await signIn(fx.handler, "target", `wrong ${i}`)).status).toBe(401);
    const refused = await signIn(fx.handler, "target", "target's password");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^too many failed sign-ins for "target": try again in 15 min$/,
    );
    // Others are not affected.
    expect((await signIn(fx.handler, "alice", "correct horse")).status).toBe(200);
  });

  it(`limits one address to ${SIGN_IN_RATE.max} sign-in attempts a minute`, async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_RATE.max + 1; i++)
      statuses.push((await signIn(fx.handler, `nobody${i}`, "whatever pass", address)).status);
    expect(statuses.slice(0, SIGN_IN_RATE.max).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
