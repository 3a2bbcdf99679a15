/**
 * `peloton job stop --owner`: the owner string only picks the jobs; each stop
 * is decided by the caller's rights on the job's pool (docs/identity.md). An
 * operator of team a stops the jobs in a's pool, sees the one in b's pool
 * refused with the policy's reason, and that job keeps running.
 */
import { createCaller } from "@peloton/api";
import { testActor, testContext } from "@peloton/test-support/api/context.ts";
import { type ServedApi, serveApi } from "@peloton/test-support/api/http-server.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "./support/run-cli.ts";

const ctx = testContext();
const admin = createCaller(ctx);
const operator = testActor({ login: "op", role: "OPERATOR", teams: ["a"] });
let api: ServedApi;

const yaml = (name: string) => `name: ${name}
owner: shared-owner
type: 0
instancecount: 1
sla:
  preemptible: true
defaultconfig:
  resource:
    cpulimit: 0.1
    memlimitmb: 16
  command:
    value: 'true'
`;

beforeAll(async () => {
  await resetDatabase();
  await ctx.gateway.hosts.upsert({
    hostname: "h1",
    agentId: "agent-h1",
    attributes: {},
    cpu: 8,
    memMb: 8_192,
    diskMb: 0,
    gpu: 0,
    ports: [[31000, 32000]],
    state: "UP",
  });
  await ctx.gateway.pools.create({ path: "/", name: "root", parentId: null, resources: {} }, "t");
  const resources = [
    { kind: "cpu" as const, reservation: 1, limit: 2, share: 1 },
    { kind: "memory" as const, reservation: 1_024, limit: 2_048, share: 1 },
  ];
  for (const team of ["a", "b"])
    await admin.pools.create({
      path: `/${team}`,
      config: { name: team, owningTeam: team, resources },
    });
  api = await serveApi(() => ({ ...ctx, actor: operator }));
});
afterAll(async () => {
  await api?.close();
  await ctx.close();
});

it("stops the jobs the caller may act on and reports the others as refused", async () => {
  const mine = (await admin.jobs.create({ pool: "/a", yaml: yaml("mine") })).id;
  const theirs = (await admin.jobs.create({ pool: "/b", yaml: yaml("theirs") })).id;
  const run = await runCli(api.url, "job", "stop", "--owner", "shared-owner", "--force");
  expect(run.code).toBe(1);
  expect(run.stdout).toContain(
    `Refused stopping job ${theirs}: only team "b" may stop jobs in /b\n`,
  );
  expect(run.stdout).toContain(`Stopping jobs: [${mine}]\n`);
  expect(run.stdout).toContain(`Refused jobs: [${theirs}]\n`);
  expect(run.stderr).toBe("peloton: not allowed to stop 1 of the 2 jobs\n");
  expect((await admin.jobs.get({ id: mine })).goalState).toBe("KILLED");
  expect((await admin.jobs.get({ id: theirs })).goalState).toBe("SUCCEEDED");
});
