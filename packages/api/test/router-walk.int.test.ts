/**
 * The app router walked (docs/identity.md "Where it is checked"), so that a
 * procedure added tomorrow is held to the rules without anyone listing it:
 * every mutation is built by `authorizedProcedure` (the policy decides it);
 * without an actor every mutation is a 401 "sign in first" over HTTP and
 * through the caller, with the database unchanged (every table's rows); and
 * every query and subscription but `system.health` needs sign-in too.
 */
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { type ServedApi, serveApi } from "@peloton/test-support/api/http-server.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { appRouter, createCaller, SIGN_IN_FIRST } from "../src/index.ts";
import { handlePreemptionsCsv } from "../src/server/http.ts";
import { givenHost } from "./support/cluster.ts";
import { batchYaml } from "./support/jobs.ts";
import { fingerprint, mutate, query } from "./support/probe.ts";

type Kind = "query" | "mutation" | "subscription";
type WalkedProcedure = { _def: { type: Kind; meta?: { authorized?: boolean } } };

/** Every procedure of the app router by its dotted path ("pools.update"). */
const FLAT = appRouter._def.procedures as unknown as Record<string, WalkedProcedure>;
const PROCEDURES = Object.entries(FLAT).map(([path, p]) => ({
  path,
  type: p._def.type,
  meta: p._def.meta,
}));
const MUTATIONS = PROCEDURES.filter((p) => p.type === "mutation");
const READS = PROCEDURES.filter((p) => p.type !== "mutation" && p.path !== "system.health");

/** Reads that anyone may make, signed in or not: only the health probe. */
const PUBLIC_READS = ["system.health"];

const ctx = testContext();
const anonymous = { ...ctx, actor: null };
let api: ServedApi;
let seeds = { pool: "", jobId: "", host: "" };
const WALK_UPDATE_ID = "00000000-0000-4000-8000-000000000017";

/**
 * A valid input of each mutation (one a signed-in admin could send): the 401
 * must come from the missing actor, not from a bad input. A new mutation
 * fails the walk until it is given one here.
 */
function validInput(path: string): unknown {
  const { pool, jobId, host } = seeds;
  const config = { name: "walk", resources: [{ kind: "cpu", reservation: 1, limit: 2, share: 1 }] };
  const inputs: Record<string, unknown> = {
    "pools.create": { path: "/walk", config },
    "pools.update": { path: pool, version: 1, config: { ...config, name: "batch" } },
    "pools.delete": { path: pool, version: 1 },
    "jobs.create": { pool, yaml: batchYaml({ name: "walk" }) },
    "jobs.stop": { id: jobId },
    "jobs.start": { id: jobId },
    "jobs.restart": { id: jobId },
    "jobs.delete": { id: jobId },
    "jobs.scale": { id: jobId, instanceCount: 5 },
    "tasks.stop": { jobId, instances: [{ from: 0, to: 0 }] },
    "tasks.start": { jobId, instances: [{ from: 0, to: 0 }] },
    "tasks.restart": { jobId },
    "updates.create": { jobId, yaml: "name: walk\ntype: SERVICE\ninstanceCount: 1\n" },
    // Any well-formed id: without an actor the 401 comes first.
    "updates.pause": { id: WALK_UPDATE_ID },
    "updates.resume": { id: WALK_UPDATE_ID },
    "updates.abort": { id: WALK_UPDATE_ID },
    "updates.rollback": { id: WALK_UPDATE_ID },
    "hosts.drain": { hostname: host, reason: "walk" },
    "hosts.up": { hostname: host, reason: "walk" },
    "tokens.create": { name: "walk" },
    "tokens.revoke": { name: "walk" },
    "users.create": {
      login: "walker",
      displayName: "Walker",
      role: "VIEWER",
      teams: [],
      hostMaintenance: false,
      password: "walk-password-123",
    },
    "users.update": { login: "walker", role: "OPERATOR" },
    "users.disable": { login: "walker" },
    "users.enable": { login: "walker" },
    "users.setPassword": { login: "walker", password: "walk-password-456" },
    "teams.create": { name: "walkers" },
    "teams.delete": { name: "walkers" },
    "teams.addMember": { team: "walkers", login: "walker" },
    "teams.removeMember": { team: "walkers", login: "walker" },
  };
  return inputs[path];
}

beforeAll(async () => {
  await resetDatabase();
  const admin = createCaller(ctx);
  await givenHost(ctx.gateway, "walk-host", { cpu: 8, memMb: 8_192 });
  await ctx.gateway.pools.create(
    { path: "/", name: "root", parentId: null, resources: {} },
    "test",
  );
  await admin.pools.create({
    path: "/batch",
    config: {
      name: "batch",
      resources: [
        { kind: "cpu", reservation: 4, limit: 8, share: 1 },
        { kind: "memory", reservation: 4_096, limit: 8_192, share: 1 },
      ],
    },
  });
  const { id } = await admin.jobs.create({ pool: "/batch", yaml: batchYaml({ instances: 2 }) });
  seeds = { pool: "/batch", jobId: id, host: "walk-host" };
  api = await serveApi(() => anonymous);
});
afterAll(async () => {
  await api?.close();
  await ctx.close();
});

describe("the router walk", () => {
  it("finds the procedures (the walk itself works)", () => {
    expect(MUTATIONS.map((m) => m.path)).toEqual(
      expect.arrayContaining(["pools.update", "jobs.stop", "tasks.restart", "hosts.drain"]),
    );
    expect(READS.map((r) => r.path)).toEqual(expect.arrayContaining(["jobs.get", "audit.list"]));
  });

  it.each(MUTATIONS)("$path is an authorizedProcedure (the policy decides it)", ({ meta }) => {
    expect(meta?.authorized).toBe(true);
  });

  it.each(MUTATIONS)("$path has a valid input for this walk", ({ path }) => {
    expect(validInput(path), `give ${path} a valid input in validInput()`).toBeDefined();
  });
});

describe("without an actor", () => {
  it.each(MUTATIONS)("$path over HTTP is 401 and changes nothing", async ({ path }) => {
    const before = await fingerprint(inject("databaseUrl"));
    const answer = await mutate(api.url, path, validInput(path));
    expect(answer.status).toBe(401);
    expect(answer.error).toMatchObject({
      message: SIGN_IN_FIRST,
      data: { code: "UNAUTHORIZED" },
    });
    expect(await fingerprint(inject("databaseUrl"))).toEqual(before);
  });

  it.each(MUTATIONS)(
    "$path through the caller is UNAUTHORIZED and changes nothing",
    async ({ path }) => {
      const before = await fingerprint(inject("databaseUrl"));
      const error = await callByPath(createCaller(anonymous), path, validInput(path)).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TRPCError);
      expect(error).toMatchObject({ code: "UNAUTHORIZED", message: SIGN_IN_FIRST });
      expect(await fingerprint(inject("databaseUrl"))).toEqual(before);
    },
  );

  it.each(READS)("$path ($type) needs sign-in", async ({ path, type }) => {
    const error = await callByPath(createCaller(anonymous), path, {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "UNAUTHORIZED", message: SIGN_IN_FIRST });
    if (type === "query") expect((await query(api.url, path, {})).status).toBe(401);
  });

  it.each(PUBLIC_READS)("%s answers without an actor", async (path) => {
    expect((await query(api.url, path)).status).toBe(200);
  });

  it("the preemptions CSV is a 401 without an actor, the file with one", async () => {
    const url = "http://console/api/preemptions.csv";
    const refused = await handlePreemptionsCsv(new Request(url));
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe(`${SIGN_IN_FIRST}\n`);
    const served = await fetch(`${api.url}/api/preemptions.csv`);
    expect(served.status).toBe(401);
  });

  it("the preemptions CSV asks the resolver it is given", async () => {
    const seen: string[] = [];
    const answer = await handlePreemptionsCsv(
      new Request("http://console/api/preemptions.csv?since=bogus"),
      async (req) => {
        seen.push(new URL(req.url).pathname);
        return testActor();
      },
      () => ctx.gateway,
    );
    expect(seen).toEqual(["/api/preemptions.csv"]);
    // Signed in, the request reaches the export (here its filter check: a 400, not a 401).
    expect(answer.status).toBe(400);
  });
});

/** Calls the procedure at a dotted path on a caller ("pools.update" → caller.pools.update). */
function callByPath(caller: ReturnType<typeof createCaller>, path: string, input: unknown) {
  const fn = path
    .split(".")
    .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], caller) as (
    input: unknown,
  ) => Promise<unknown>;
  return Promise.resolve().then(() => fn(input));
}
