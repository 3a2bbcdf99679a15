/**
 * The fuzz test of issue 14 (deterministic seed): bad inputs for every
 * procedure of the app router — found by walking it, so a new mutation is
 * fuzzed without anyone listing it — and for the YAML decoders, sent over
 * HTTP to the console's own edge on a real PostgreSQL. Every answer is
 * below 500; every refusal comes back within 200 ms (server time, stretched
 * on a busy machine: timing.ts) naming a field or a limit, without internals;
 * a health probe running alongside keeps answering within 100 ms; and the
 * database is byte-for-byte what it was (row counts and checksums).
 */

import { MAX_REQUEST_BYTES } from "@peloton/engine";
import { testContext } from "@peloton/test-support/api/context.ts";
import { type ServedApi, serveApi } from "@peloton/test-support/api/http-server.ts";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { seededRandom } from "../../../bench/harness.ts";
import { ConfigError, checkJobYaml, parsePelotonYaml } from "../src/config/index.ts";
import { appRouter, createCaller } from "../src/index.ts";
import { respoolConfigSchema } from "../src/schemas/index.ts";
import { givenHost } from "./support/cluster.ts";
import {
  mutateInput,
  mutateYaml,
  VALID_JOB_YAML,
  VALID_RESPOOL_YAML,
} from "./support/fuzz-inputs.ts";
import { type Answer, fingerprint, mutate, query } from "./support/probe.ts";
import { within } from "./support/timing.ts";

const SEED = 14;
const PER_MUTATION = 40;
const PER_QUERY = 6;
const YAML_DECODES = 400;

type Procedure = {
  _def: {
    type: "query" | "mutation" | "subscription";
    inputs: { safeParse?: (v: unknown) => { success: boolean } }[];
  };
};

const ctx = testContext();
let api: ServedApi;
let seeds: { pool: string; jobId: string; host: string };

/** A valid input of each procedure (others start from {}): the fuzz breaks these. */
function baseInput(path: string): unknown {
  const { pool, jobId, host } = seeds;
  const config = {
    name: "fuzz",
    owningTeam: "t",
    ldapGroups: ["g"],
    description: "d",
    resources: [{ kind: "cpu", reservation: 1, limit: 2, share: 1 }],
  };
  const ref = { id: jobId, version: 1 };
  const task = { jobId, instance: 0 };
  const bases: Record<string, unknown> = {
    "pools.create": { path: "/fuzz", config },
    "pools.update": { path: pool, version: 1, config: { ...config, name: "batch" } },
    "pools.delete": { path: pool, version: 1 },
    "pools.get": { path: pool },
    "pools.history": { path: pool, cursor: "1", limit: 5 },
    "pools.entitlementSeries": { path: pool, range: "1h" },
    "pools.preview": { action: "update", path: pool, config: { ...config, name: "batch" } },
    "jobs.create": { pool, yaml: VALID_JOB_YAML },
    "jobs.get": { id: jobId },
    "jobs.list": { text: "f", labels: [{ key: "app", value: "fuzz" }], limit: 5 },
    "jobs.events": { id: jobId, cursor: "1", limit: 5 },
    "jobs.stop": ref,
    "jobs.start": ref,
    "jobs.restart": ref,
    "jobs.delete": ref,
    "jobs.scale": { ...ref, instanceCount: 2 },
    "tasks.list": { jobId, limit: 5 },
    "tasks.get": task,
    "tasks.events": { ...task, cursor: "1", limit: 5 },
    "tasks.logs": { ...task, offset: 0, length: 100 },
    "tasks.stop": { jobId, instances: [{ from: 0, to: 0 }] },
    "tasks.start": { jobId, instances: [{ from: 0, to: 0 }] },
    "tasks.restart": { jobId, instances: [{ from: 0, to: 0 }] },
    "hosts.list": { text: "h", limit: 5 },
    "hosts.get": { hostname: host },
    "hosts.startMaintenance": { hostname: host, reason: "r" },
    "hosts.completeMaintenance": { hostname: host, reason: "r" },
    "search.query": { q: "fuzz" },
    "volumes.list": { text: "v", limit: 5 },
    "preemptions.list": { pool, limit: 5 },
    "preemptions.get": { id: "1" },
    "preemptions.countsByPool": { pool },
    "audit.list": { actor: "alice", limit: 5 },
  };
  return bases[path] ?? {};
}

/** Whether the API's own input schema (and, for a job, the YAML check) would take `input`. */
function wouldAccept(procedure: Procedure, path: string, input: unknown): boolean {
  const schema = procedure._def.inputs[0];
  if (schema?.safeParse && !schema.safeParse(input).success) return false;
  if (path === "jobs.create") {
    const yaml = (input as { yaml?: unknown }).yaml;
    return typeof yaml === "string" && checkJobYaml(yaml).ok;
  }
  return true;
}

beforeAll(async () => {
  await resetDatabase();
  const pool = await leafPool(ctx.gateway);
  await givenHost(ctx.gateway, "fuzz-host", { cpu: 8, memMb: 8_192 });
  const created = await createCaller(ctx).jobs.create({ pool, yaml: VALID_JOB_YAML });
  seeds = { pool, jobId: created.id, host: "fuzz-host" };
  api = await serveApi(() => ctx);
});
afterAll(async () => {
  await api?.close();
  await ctx.close();
});

const INTERNALS =
  /prisma|invalid input syntax|\bSELECT\b|\bINSERT\b|\bat \S+\.[jt]s:\d+|node_modules/i;

it("refuses every bad input in milliseconds, naming a field or a limit, and changes nothing", async () => {
  const before = await fingerprint(inject("databaseUrl"));
  const r = seededRandom(SEED);
  const problems: string[] = [];
  let sent = 0;
  let refusals = 0;

  // A health probe alongside, the whole time. One call first warms the path
  // (pool connections, code compiled on first use): the probe measures what
  // the fuzz inputs do to other requests, not the server's first request.
  await query(api.url, "system.health");
  const healthMs: number[] = [];
  /** The input in flight when a probe was slow: replayed below to tell a stall from noise. */
  type Sent = { path: string; type: string; input: unknown };
  let inFlight: Sent | undefined;
  const suspects: Sent[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const beside = inFlight;
      const h = await query(api.url, "system.health");
      if (h.status !== 200) problems.push(`system.health answered ${h.status}`);
      healthMs.push(h.serverMs);
      if (h.serverMs >= within(100) && beside !== undefined) suspects.push(beside);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const send = (s: Sent) =>
    s.type === "mutation" ? mutate(api.url, s.path, s.input) : query(api.url, s.path, s.input);

  const check = (path: string, input: unknown, a: Answer, mustRefuse: boolean) => {
    sent++;
    const what = `${path} ${JSON.stringify(input)?.slice(0, 160)}`;
    if (a.status === 0 && JSON.stringify(input).length > MAX_REQUEST_BYTES) {
      refusals++; // refused unread: the server closed the connection under the upload
      return;
    }
    if (a.status === 0 || a.status >= 500)
      return problems.push(`${a.status} for ${what}: ${a.text.slice(0, 300)}`);
    if (a.status === 200) {
      if (mustRefuse) problems.push(`accepted ${what}`);
      return;
    }
    refusals++;
    if (a.serverMs > within(200)) problems.push(`${a.serverMs} ms to refuse ${what}`);
    const issues = a.error?.data?.issues ?? [];
    // A field, a line of a file, or a number (a limit); an input of the wrong type altogether
    // (a string where the object goes) is named by its type.
    const named = issues.some(
      (i) =>
        i.field ||
        i.line !== undefined ||
        /\d/.test(i.message) ||
        (i.code === "invalid_type" && i.field === null),
    );
    if (!named) problems.push(`no field or limit named for ${what}: ${a.text.slice(0, 300)}`);
    if (INTERNALS.test(a.text))
      problems.push(`internals in the answer to ${what}: ${a.text.slice(0, 300)}`);
  };

  const procedures = Object.entries(
    appRouter._def.procedures as unknown as Record<string, Procedure>,
  );
  for (const [path, procedure] of procedures) {
    const type = procedure._def.type;
    if (type === "subscription") continue;
    const rounds = type === "mutation" ? PER_MUTATION : PER_QUERY;
    for (let n = 0; n < rounds; n++) {
      let input: unknown;
      for (let attempt = 0; attempt < 20; attempt++) {
        const base = baseInput(path);
        const candidate =
          path === "jobs.create" && r() < 0.6
            ? { ...(base as object), yaml: mutateYaml(r, VALID_JOB_YAML) }
            : mutateInput(r, base, type === "query");
        // Mutations get only inputs the API must refuse, so the database must stay as it was.
        if (type === "query" || !wouldAccept(procedure, path, candidate)) {
          input = candidate;
          break;
        }
      }
      if (input === undefined) continue;
      inFlight = { path, type, input };
      const a = await send(inFlight);
      inFlight = undefined;
      check(path, input, a, type === "mutation");
    }
  }

  // The probe measures the server's answers to HTTP inputs; the decoder loop
  // below runs synchronously in this process, so it would only time itself.
  probing = false;
  await probe;

  // A slow probe beside an input is a stall only if it happens again: each
  // suspect is replayed three times with a probe alongside, and an input
  // whose every replay delays the probe past the bound is a finding. (On a
  // shared 2-core machine a single probe can wait for the CPU by chance.)
  for (const s of suspects.slice(0, 20)) {
    let slow = 0;
    for (let k = 0; k < 3; k++) {
      const [, h] = await Promise.all([send(s), query(api.url, "system.health")]);
      if (h.serverMs >= within(100)) slow++;
    }
    if (slow === 3)
      problems.push(
        `${s.path} ${JSON.stringify(s.input)?.slice(0, 160)} delays a concurrent health probe past ${within(100).toFixed(0)} ms every time`,
      );
  }

  // The YAML decoders themselves (the CLI's and the console editor's): a ConfigError or a value, quickly.
  for (let n = 0; n < YAML_DECODES; n++) {
    const respool = r() < 0.4;
    const text = mutateYaml(r, respool ? VALID_RESPOOL_YAML : VALID_JOB_YAML);
    const started = performance.now();
    try {
      if (respool) parsePelotonYaml(text, respoolConfigSchema);
      else checkJobYaml(text);
    } catch (err) {
      if (!(err instanceof ConfigError))
        problems.push(`decoder threw ${String(err)} for ${text.slice(0, 160)}`);
      else if (err.issues.length === 0)
        problems.push(`a ConfigError without issues for ${text.slice(0, 160)}`);
    }
    const ms = performance.now() - started;
    if (ms > within(200)) problems.push(`${ms.toFixed(0)} ms to decode ${text.slice(0, 160)}`);
    sent++;
  }

  const after = await fingerprint(inject("databaseUrl"));
  console.info(
    `fuzz: ${sent} inputs, ${refusals} refusals over HTTP, health probe max ${Math.max(...healthMs).toFixed(1)} ms over ${healthMs.length} probes`,
  );
  expect(problems.slice(0, 20)).toEqual([]);
  expect(sent).toBeGreaterThanOrEqual(1_000);
  expect(suspects.length).toBeLessThan(healthMs.length / 10);
  expect(after).toEqual(before);
}, 180_000);
