/**
 * DAEMON jobs follow the hosts (peloton-semantics.md §3: one instance on
 * each eligible host). When hosts come, go or change state, each running
 * daemon job gets an instance, pinned to it, on every eligible host without
 * one, and the instances on hosts no longer eligible are deleted (killed
 * first when they still run). Engine `daemonInstancesFor` decides; the
 * writes are the job manager's own (new task rows, goals), in one
 * transaction per job, announced.
 */
import { daemonInstancesFor } from "@peloton/engine";
import type { StorageGateway } from "@peloton/storage";
import type { Logger } from "../common/logger.ts";
import { EVENT_SOURCES } from "../taskwriter/event-sources.ts";
import type { JobConfigs } from "../taskwriter/job-configs.ts";
import { eligibleDaemonHosts } from "./daemon-hosts.ts";
import { newTasksFor } from "./new-tasks.ts";

export async function reconcileDaemons(
  gateway: StorageGateway,
  configs: JobConfigs,
  log: Logger,
): Promise<void> {
  const daemons = (await gateway.jobs.active()).filter((j) => j.type === "DAEMON");
  if (daemons.length === 0) return;
  const hosts = (await gateway.placementReads.hostFacts()).filter((h) => h.state === "UP");
  const byId = await configs.get(daemons.map((d) => d.id));
  for (const daemon of daemons) {
    const config = byId.get(daemon.id);
    if (!config) continue;
    const job = await gateway.jobs.get(daemon.id);
    if (job?.goalState !== "RUNNING") continue;
    const eligible = eligibleDaemonHosts(
      config,
      hosts.map((h) => ({
        hostname: h.hostname,
        attributes: h.attributes,
        total: h.total,
      })),
    );
    const tasks = await gateway.taskReads.list({ jobId: daemon.id, limit: 100_000 });
    const existing = tasks.items
      .filter((t) => t.goalState !== "DELETED" && t.pinnedHost !== null)
      .map((t) => ({ instance: t.instanceId, host: t.pinnedHost! }));
    const firstFree = tasks.items.reduce((n, t) => Math.max(n, t.instanceId + 1), 0);
    const plan = daemonInstancesFor(eligible, existing, firstFree);
    if (plan.add.length === 0 && plan.stop.length === 0) continue;
    await gateway.transaction(async (tx) => {
      // Task rows before the job row, all in one statement (id order): the lock order of
      // every bulk task write (storage task-locks.ts), or this meets the task writer in a deadlock.
      if (plan.stop.length > 0)
        await tx.taskIntents.setGoal(
          {
            jobId: daemon.id,
            instances: plan.stop.map((s) => ({ from: s.instance, to: s.instance })),
          },
          "DELETED",
        );
      if (plan.add.length > 0) {
        const pinned = new Map(plan.add.map((a) => [a.instance, a.host]));
        const instances = plan.add.map((a) => a.instance);
        await tx.tasks.insertMany(
          newTasksFor(daemon.id, config, instances, pinned, undefined, job.configVersion),
        );
        await tx.tasks.recordCreated(daemon.id, instances, {
          source: EVENT_SOURCES.jobManager,
          reason: "DAEMON_HOST_ADDED",
          message: "a new eligible host joined: one instance of the daemon job runs there",
        });
        await tx.jobs.addTaskCounts([
          { jobId: daemon.id, state: "PENDING", delta: instances.length },
        ]);
      }
      await tx.jobs.writeIntent(daemon.id, job.version, {
        instanceCount: plan.keep.length + plan.add.length,
      });
      await tx.changes.announce(
        { topic: "jobs", keys: [daemon.id] },
        {
          topic: "tasks",
          keys: [...plan.add, ...plan.stop].map((i) => `${daemon.id}/${i.instance}`),
        },
      );
    });
    log.info(
      { jobId: daemon.id, added: plan.add.length, stopped: plan.stop.length },
      "daemon job follows the hosts",
    );
  }
}
