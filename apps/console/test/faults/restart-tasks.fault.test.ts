/**
 * `npm start`, a 20-instance service and a stateful job running, Ctrl-C,
 * `npm start` again: the tasks outlived the launcher (they belong to
 * mesos-sim's agents, as Mesos tasks outlive a scheduler) and the new
 * mesos-sim re-adopts them from its checkpoint. Afterwards exactly one OS
 * process per instance (the very same processes), no instance LOST, and the
 * stateful instance keeps its volume and comes back on its host. Then the
 * same after kill -9 of the launcher (its in-process mesos-sim dies with it).
 */
import type { AppRouter } from "@peloton/api";
import { transformer } from "@peloton/api/transformer";
import { createTRPCClient, httpLink } from "@trpc/client";
import { afterAll, expect, it } from "vitest";
import {
  adminHeaders,
  alive,
  eventually,
  freePort,
  interrupt,
  type Launcher,
  readLock,
  scratchDirs,
  serversOf,
  startLauncher,
  taskProcesses,
  waitHealthy,
} from "./support/launcher.ts";

/** The API as the console calls it (queries and mutations over HTTP), signed in as the admin. */
async function createApiClient(baseUrl: string) {
  const headers = await adminHeaders(baseUrl);
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl}/api/trpc`, transformer, headers })],
  });
}

const dirs = scratchDirs("fault-restart");
let current: Launcher | undefined;
let port: number;

const SERVICE = `name: fault_restart_web
type: SERVICE
instanceCount: 20
defaultConfig:
  resource:
    cpuLimit: 0.1
    memLimitMb: 16
  command:
    value: sleep 3600
`;

const STATEFUL = `name: fault_restart_ledger
type: STATEFUL
instanceCount: 1
defaultConfig:
  resource:
    cpuLimit: 0.1
    memLimitMb: 16
  command:
    value: sleep 3600
  volume:
    containerPath: ledger
    sizeMB: 256
`;

afterAll(async () => {
  const lock = readLock(dirs);
  if (current && lock && alive(lock.launcher.pid)) {
    process.kill(lock.launcher.pid, "SIGINT");
    await Promise.race([current.exited, new Promise((r) => setTimeout(r, 30_000))]);
  }
  for (const pid of [...serversOf(dirs).console, ...serversOf(dirs).postgres]) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  // The tasks outlive launchers by design: end them here.
  for (const jobId of jobIds) {
    for (const pids of taskProcesses(jobId).values()) {
      for (const pid of pids) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // gone
        }
      }
    }
  }
  dirs.dispose();
}, 60_000);

const jobIds: string[] = [];

type Client = Awaited<ReturnType<typeof createApiClient>>;

async function tasksOf(client: Client, jobId: string) {
  const page = await client.tasks.list.query({ jobId, limit: 100 });
  return page.items;
}

const allRunning = (tasks: { state: string }[], n: number) =>
  tasks.length === n && tasks.every((t) => t.state === "RUNNING");

it("Ctrl-C and start again: one process per instance, none LOST, the stateful instance keeps its volume and host", async () => {
  port = await freePort();
  current = startLauncher(dirs, port);
  await waitHealthy(current, 120_000);
  const client = await createApiClient(current.url);

  const web = await client.jobs.create.mutate({ pool: "/DefaultResPool", yaml: SERVICE });
  const ledger = await client.jobs.create.mutate({ pool: "/DefaultResPool", yaml: STATEFUL });
  jobIds.push(web.id, ledger.id);
  await eventually(
    "20 service instances RUNNING",
    120_000,
    () => tasksOf(client, web.id),
    (t) => allRunning(t, 20),
  );
  const [ledgerBefore] = await eventually(
    "the stateful instance RUNNING",
    120_000,
    () => tasksOf(client, ledger.id),
    (t) => allRunning(t, 1),
  );
  const volumeBefore = (await client.tasks.get.query({ jobId: ledger.id, instance: 0 })).volume;
  expect(volumeBefore?.state).toBe("CREATED");
  const processesBefore = taskProcesses(web.id);
  expect([...processesBefore.values()].map((p) => p.length)).toEqual(Array(20).fill(1));
  const ledgerProcessBefore = taskProcesses(ledger.id).get(0);

  const lock = readLock(dirs);
  expect(await interrupt(current, lock?.launcher.pid ?? 0)).toBe(0);
  // Tasks are the agents', not the launcher's: still running with nobody watching.
  for (const [, pids] of processesBefore) expect(pids.every(alive)).toBe(true);

  current = startLauncher(dirs, port);
  await waitHealthy(current, 120_000);
  const again = await createApiClient(current.url);
  // Give reconciliation a few rounds: a wrongly LOST instance would show here.
  await new Promise((r) => setTimeout(r, 8_000));
  const webAfter = await eventually(
    "20 service instances RUNNING after the restart",
    120_000,
    () => tasksOf(again, web.id),
    (t) => allRunning(t, 20),
  );
  expect(webAfter.filter((t) => t.state === "LOST")).toEqual([]);
  const after = taskProcesses(web.id);
  expect(after.size).toBe(20);
  // The very processes of before: re-adopted, not launched again beside orphans.
  for (const [instance, pids] of after) expect(pids).toEqual(processesBefore.get(instance));

  const [ledgerAfter] = await eventually(
    "the stateful instance RUNNING after the restart",
    120_000,
    () => tasksOf(again, ledger.id),
    (t) => allRunning(t, 1),
  );
  expect(ledgerAfter?.hostname).toBe(ledgerBefore?.hostname);
  expect(taskProcesses(ledger.id).get(0)).toEqual(ledgerProcessBefore);
  const volumeAfter = (await again.tasks.get.query({ jobId: ledger.id, instance: 0 })).volume;
  expect(volumeAfter?.id).toBe(volumeBefore?.id);
  expect(volumeAfter?.state).toBe("CREATED");
  expect(volumeAfter?.hostname).toBe(ledgerBefore?.hostname);
}, 420_000);

it("kill -9 of the launcher, start again: still one process per instance, the same ones", async () => {
  const [webId] = jobIds;
  if (!current || webId === undefined)
    throw new Error("needs the running service of the test before");
  const before = taskProcesses(webId);
  expect(before.size).toBe(20);

  process.kill(readLock(dirs)?.launcher.pid ?? 0, "SIGKILL");
  await current.exited;
  for (const [, pids] of before) expect(pids.every(alive)).toBe(true);

  current = startLauncher(dirs, port);
  await waitHealthy(current, 60_000);
  const client = await createApiClient(current.url);
  await new Promise((r) => setTimeout(r, 8_000));
  const tasks = await eventually(
    "20 service instances RUNNING after kill -9 and restart",
    120_000,
    () => tasksOf(client, webId),
    (t) => allRunning(t, 20),
  );
  expect(tasks.filter((t) => t.state === "LOST")).toEqual([]);
  const after = taskProcesses(webId);
  expect(after.size).toBe(20);
  for (const [instance, pids] of after) expect(pids).toEqual(before.get(instance));
}, 300_000);
