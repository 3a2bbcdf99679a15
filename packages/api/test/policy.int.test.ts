/**
 * The policy through the real routers and PostgreSQL (docs/identity.md): a
 * table of every role × every mutation × the actor in the target's team or
 * in another → the change is made (and audited with who and how), or it is
 * a 403 with the policy's sentence, nothing changed, and an audit row with
 * outcome "refused" naming actor, channel and reason.
 */
import { ROLES, type Role } from "@peloton/engine";
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { directSql } from "@peloton/test-support/storage/direct-sql.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { type AccessRequest, decide, type PoolFacts } from "../src/auth/policy.ts";
import { type Actor, createCaller } from "../src/index.ts";
import { givenHost } from "./support/cluster.ts";
import { batchYaml } from "./support/jobs.ts";

const ctx = testContext();
const { gateway } = ctx;
afterAll(() => ctx.close());

const HOST = "node-00.test";
/** Owned by team ml; team research may submit to its pools too. */
const ML = { owningTeam: "ml", ldapGroups: ["research"] };
const facts = (path: string): PoolFacts => ({ path, ...ML });
const PARENT = {
  cpu: { reservation: 100, limit: 100, share: 1 },
  memory: { reservation: 100_000, limit: 100_000, share: 1 },
};
/** A tenth of the parent each, so a third child still fits. */
const CHILD = {
  cpu: { reservation: 10, limit: 100, share: 1 },
  memory: { reservation: 10_000, limit: 100_000, share: 1 },
};
const poolConfig = (name: string, description = "") => ({
  name,
  owningTeam: "ml",
  ldapGroups: ["research"],
  description,
  resources: [{ kind: "cpu" as const, reservation: 1, limit: 10, share: 1 }],
});

let jobId = "";

/** /ml (its parent), /ml/jobs (a job of 2 instances in it), /ml/spare (empty), one host. */
async function arrange(): Promise<void> {
  await resetDatabase();
  await givenHost(gateway, HOST, { cpu: 100, memMb: 100_000 });
  const root = await gateway.pools.create(
    { path: "/", name: "root", parentId: null, resources: {} },
    "test",
  );
  const ml = await gateway.pools.create(
    { path: "/ml", name: "ml", parentId: root.id, resources: PARENT, ...ML },
    "test",
  );
  for (const name of ["jobs", "spare"])
    await gateway.pools.create(
      { path: `/ml/${name}`, name, parentId: ml.id, resources: CHILD, ...ML },
      "test",
    );
  const admin = createCaller({ ...ctx, actor: testActor({ login: "root-admin" }) });
  jobId = (await admin.jobs.create({ pool: "/ml/jobs", yaml: batchYaml({ instances: 2 }) })).id;
}

type Caller = ReturnType<typeof createCaller>;

interface Mutation {
  name: string;
  /** What the access function should have asked the policy. */
  request: AccessRequest;
  /** Brings the target into a state the mutation starts from. */
  prepare?: () => Promise<void>;
  call: (api: Caller) => Promise<unknown>;
}

const MUTATIONS: Mutation[] = [
  {
    name: "pools.create",
    request: { kind: "pool.create", parent: facts("/ml") },
    call: (api) => api.pools.create({ path: "/ml/new", config: poolConfig("new") }),
  },
  {
    name: "pools.update",
    request: { kind: "pool.update", pool: facts("/ml/spare"), newOwningTeam: "ml" },
    call: (api) =>
      api.pools.update({ path: "/ml/spare", version: 1, config: poolConfig("spare", "changed") }),
  },
  {
    name: "pools.delete",
    request: { kind: "pool.delete", pool: facts("/ml/spare") },
    call: (api) => api.pools.delete({ path: "/ml/spare", version: 1 }),
  },
  {
    name: "jobs.create",
    request: { kind: "job.create", pool: facts("/ml/jobs") },
    call: (api) => api.jobs.create({ pool: "/ml/jobs", yaml: batchYaml({ name: "second" }) }),
  },
  ...(["stop", "start", "restart", "delete"] as const).map(
    (verb): Mutation => ({
      name: `jobs.${verb}`,
      request: { kind: "job.act", verb, pool: facts("/ml/jobs") },
      call: (api) => api.jobs[verb]({ id: jobId }),
    }),
  ),
  {
    name: "jobs.scale",
    request: { kind: "job.act", verb: "scale", pool: facts("/ml/jobs") },
    call: (api) => api.jobs.scale({ id: jobId, instanceCount: 3 }),
  },
  ...(["stop", "start", "restart"] as const).map(
    (verb): Mutation => ({
      name: `tasks.${verb}`,
      request: { kind: "task.act", verb, pool: facts("/ml/jobs") },
      call: (api) => api.tasks[verb]({ jobId, instances: [{ from: 0, to: 0 }] }),
    }),
  ),
  {
    name: "hosts.startMaintenance",
    request: { kind: "host.act", verb: "startMaintenance", hostname: HOST },
    call: (api) => api.hosts.startMaintenance({ hostname: HOST, reason: "maintenance" }),
  },
  {
    name: "hosts.completeMaintenance",
    request: { kind: "host.act", verb: "completeMaintenance", hostname: HOST },
    prepare: async () => {
      await gateway.transaction((tx) =>
        tx.hostMaintenance.start(HOST, { login: "root", via: "test" }, "maintenance"),
      );
    },
    call: (api) => api.hosts.completeMaintenance({ hostname: HOST, reason: "back" }),
  },
];

/** Everything a mutation here could change, as text to compare before and after. */
async function state(): Promise<string> {
  const rows = await directSql<{ state: string }>(`SELECT concat_ws(' | ',
    (SELECT string_agg(concat_ws(',', path, version, owning_team, description), ';' ORDER BY path) FROM resource_pools),
    (SELECT string_agg(concat_ws(',', id, goal_state, instance_count, version, submitted_by), ';' ORDER BY id) FROM jobs),
    (SELECT string_agg(concat_ws(',', job_id, instance_id, goal_state, run_id, desired_run), ';' ORDER BY job_id, instance_id) FROM tasks),
    (SELECT string_agg(concat_ws(',', hostname, state), ';' ORDER BY hostname) FROM hosts),
    (SELECT count(*) FROM audit_log WHERE outcome = 'allowed')) AS state`);
  return rows[0]!.state;
}

async function newestAudit() {
  const [row] = await directSql<{
    actor: string;
    via: string;
    outcome: string;
    refusal: string | null;
    action: string;
  }>("SELECT actor, via, outcome, refusal, action FROM audit_log ORDER BY id DESC LIMIT 1");
  return row!;
}

const MEMBERSHIP = { "own team": ["ml"], "other team": ["web"] } as const;
type Membership = keyof typeof MEMBERSHIP;

function actorOf(role: Role, membership: Membership): Actor {
  return testActor({
    login: `${role.toLowerCase().replace("_", "")}-${membership === "own team" ? "ml" : "web"}`,
    role,
    teams: [...MEMBERSHIP[membership]],
    via: { kind: "token", tokenId: "t-1", tokenName: "ci" },
  });
}

const TABLE = ROLES.flatMap((role) =>
  (Object.keys(MEMBERSHIP) as Membership[]).flatMap((membership) =>
    MUTATIONS.map((m) => [role, membership, m.name, m] as const),
  ),
);

describe("every mutation × role × team, through the routers", () => {
  beforeEach(arrange);

  it.each(TABLE)("%s of %s: %s", async (role, membership, _name, m) => {
    await m.prepare?.();
    const actor = actorOf(role, membership);
    const api = createCaller({ ...ctx, actor });
    const decision = decide(actor, m.request);
    const before = await state();
    const outcome = await m.call(api).then(
      () => null,
      (e: unknown) => e,
    );

    if (decision.allowed) {
      expect(outcome).toBeNull();
      expect(await state()).not.toBe(before);
      expect(await newestAudit()).toMatchObject({
        actor: actor.login,
        via: "token:ci",
        outcome: "allowed",
      });
      return;
    }
    expect(outcome).toBeInstanceOf(TRPCError);
    expect(outcome).toMatchObject({ code: "FORBIDDEN", message: decision.reason });
    expect(await state()).toBe(before);
    expect(await newestAudit()).toEqual({
      actor: actor.login,
      via: "token:ci",
      outcome: "refused",
      refusal: decision.reason,
      action: m.name.replace(/^(pools|jobs|tasks|hosts)\./, (_, r: string) => `${r.slice(0, -1)}.`),
    });
  });

  it("the table's expectations: admins do everything, leads their pools, operators their jobs", () => {
    const allowed = (role: Role, membership: Membership, name: string) =>
      decide(actorOf(role, membership), MUTATIONS.find((m) => m.name === name)!.request).allowed;
    expect(allowed("ADMIN", "other team", "hosts.startMaintenance")).toBe(true);
    expect(allowed("TEAM_LEAD", "own team", "pools.update")).toBe(true);
    expect(allowed("OPERATOR", "own team", "pools.update")).toBe(false);
    expect(allowed("OPERATOR", "own team", "jobs.stop")).toBe(true);
    expect(allowed("OPERATOR", "other team", "jobs.stop")).toBe(false);
    expect(allowed("VIEWER", "own team", "tasks.restart")).toBe(false);
    expect(allowed("TEAM_LEAD", "own team", "hosts.completeMaintenance")).toBe(false);
  });
});

describe("targets that do not exist", () => {
  beforeEach(arrange);
  const viewer = () => createCaller({ ...ctx, actor: actorOf("VIEWER", "other team") });
  const missingJob = "00000000-0000-4000-8000-00000000dead";

  it.each([
    [
      "pools.update",
      (api: Caller) => api.pools.update({ path: "/nope", version: 1, config: poolConfig("nope") }),
      "/nope: no such pool",
    ],
    ["pools.delete", (api: Caller) => api.pools.delete({ path: "/nope" }), "/nope: no such pool"],
    [
      "jobs.stop",
      (api: Caller) => api.jobs.stop({ id: missingJob }),
      `job ${missingJob} does not exist`,
    ],
    [
      "tasks.restart",
      (api: Caller) => api.tasks.restart({ jobId: missingJob }),
      `job ${missingJob} does not exist`,
    ],
    [
      "jobs.create",
      (api: Caller) => api.jobs.create({ pool: "/nope", yaml: batchYaml() }),
      "/nope: no such pool",
    ],
    [
      "hosts.startMaintenance",
      (api: Caller) => api.hosts.startMaintenance({ hostname: "ghost.test" }),
      "host ghost.test does not exist",
    ],
  ] as const)(
    "%s answers NOT_FOUND as before, whoever asks, and audits nothing",
    async (_name, call, message) => {
      const before = await state();
      await expect(call(viewer())).rejects.toMatchObject({ code: "NOT_FOUND", message });
      await expect(call(createCaller(ctx))).rejects.toMatchObject({ code: "NOT_FOUND", message });
      expect(await state()).toBe(before);
      expect((await newestAudit()).action).toBe("job.create");
    },
  );

  it("a new pool under a missing parent is the create's own error", async () => {
    await expect(
      viewer().pools.create({ path: "/nope/child", config: poolConfig("child") }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "/nope/child: the parent /nope does not exist",
    });
  });
});

describe("who submitted a job", () => {
  beforeEach(arrange);

  it("is the submitting login, whatever the file's owner says", async () => {
    const operator = actorOf("OPERATOR", "own team");
    const api = createCaller({ ...ctx, actor: operator });
    const yaml = `owner: someone-else\n${batchYaml({ name: "mine" })}`;
    const { id } = await api.jobs.create({ pool: "/ml/jobs", yaml });
    const job = await api.jobs.get({ id });
    expect(job).toMatchObject({ owner: "someone-else", submittedBy: operator.login });
    const listed = await api.jobs.list({ text: "mine" });
    expect(listed.items[0]).toMatchObject({ submittedBy: operator.login });
  });

  it("owning the job's owner string gives no right on it", async () => {
    const viewer = testActor({ login: "someone-else", role: "VIEWER", teams: ["ml"] });
    const admin = createCaller(ctx);
    const yaml = `owner: someone-else\n${batchYaml({ name: "theirs" })}`;
    const { id } = await admin.jobs.create({ pool: "/ml/jobs", yaml });
    await expect(createCaller({ ...ctx, actor: viewer }).jobs.stop({ id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });
});

describe("audit.list shows refused attempts", () => {
  beforeEach(arrange);

  it("with via, outcome and reason, and filters by outcome", async () => {
    const operator = actorOf("OPERATOR", "other team");
    await createCaller({ ...ctx, actor: operator })
      .jobs.stop({ id: jobId })
      .catch(() => undefined);
    const admin = createCaller(ctx);
    const refused = await admin.audit.list({ outcome: "refused" });
    expect(refused.items).toEqual([
      expect.objectContaining({
        actor: operator.login,
        action: "job.stop",
        targetType: "job",
        targetId: jobId,
        via: "token:ci",
        outcome: "refused",
        refusal: 'only teams "research", "ml" may stop jobs in /ml/jobs',
      }),
    ]);
    const allowed = await admin.audit.list({ outcome: "allowed" });
    expect(allowed.items.map((e) => [e.action, e.outcome, e.refusal, e.via])).toEqual([
      ["job.create", "allowed", null, "session"],
    ]);
  });
});
