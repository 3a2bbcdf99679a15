/**
 * A restarted mesos-sim picks up where the last one stopped, as a Mesos
 * agent with checkpointing recovers from its `meta/` directory:
 *
 * - agents keep their ids (matched to the agent specs by id, then by
 *   hostname), their reservations and persistent volumes; agents added at
 *   run time come back too; a checkpointed agent no longer configured is
 *   gone, its tasks killed;
 * - frameworks that asked for checkpointing (`FrameworkInfo.checkpoint`)
 *   wait for their re-subscription, their failover timeout running; the
 *   tasks of the others are killed and forgotten, as an agent does not
 *   recover a non-checkpointing framework's executors;
 * - live tasks hold their resources again, their processes are adopted (or
 *   reported as they ended while the sim was down), and every status update
 *   not acknowledged before goes out again once the framework is back.
 */
import { isTerminalState } from "../../proto/enums.ts";
import type { AgentSpec } from "../cluster.ts";
import { signalGroup } from "../executor-process.ts";
import type { Master } from "../master.ts";
import { bootId, isRunning } from "./proc.ts";
import type { AgentRecord, TaskRecord } from "./records.ts";
import type { CheckpointStore } from "./store.ts";

export interface RecoveryReport {
  agents: number;
  frameworks: number;
  /** Live tasks taken over (processes adopted, simulated runs resumed). */
  tasks: number;
  /** Task processes killed because their agent or framework was not recovered. */
  killed: number;
}

interface AgentPlan {
  spec: AgentSpec;
  recovered?: {
    total: AgentRecord["total"];
    spec: AgentSpec;
    dynamic: boolean;
    port: number | undefined;
  };
}

/** Which checkpointed agent each spec is, plus the dynamic agents to re-add. */
export function planAgents(
  specs: readonly AgentSpec[],
  stored: ReadonlyMap<string, AgentRecord>,
): AgentPlan[] {
  const byHostname = new Map<string, AgentRecord>();
  const hostless: AgentRecord[] = [];
  for (const a of stored.values()) {
    if (a.dynamic) continue;
    if (a.spec.hostname !== undefined) byHostname.set(a.spec.hostname, a);
    else if (a.spec.id === undefined) hostless.push(a);
  }
  const taken = new Set<string>();
  const plans: AgentPlan[] = specs.map((spec) => {
    const rec =
      spec.id !== undefined
        ? stored.get(spec.id)
        : spec.hostname !== undefined
          ? byHostname.get(spec.hostname)
          : hostless.shift();
    if (rec === undefined || taken.has(rec.id)) return { spec };
    taken.add(rec.id);
    return {
      spec: { ...spec, id: rec.id },
      recovered: { total: rec.total, spec, dynamic: false, port: rec.port },
    };
  });
  for (const rec of stored.values()) {
    if (!rec.dynamic || taken.has(rec.id)) continue;
    taken.add(rec.id);
    plans.push({
      spec: { ...rec.spec, id: rec.id },
      recovered: { total: rec.total, spec: rec.spec, dynamic: true, port: rec.port },
    });
  }
  return plans;
}

/** Starts the agents of `specs`, recovered from the checkpoint where it knows them. */
export async function recoverAgents(
  master: Master,
  store: CheckpointStore,
  specs: readonly AgentSpec[],
): Promise<void> {
  const stored = new Map(store.state.agents);
  const plans = planAgents(specs, stored);
  await Promise.all(plans.map((p) => master.addAgent(p.spec, p.recovered)));
  for (const id of stored.keys()) {
    if (!master.agents.has(id)) store.append({ t: "agent_removed", id });
  }
}

/** Frameworks, tasks and unacknowledged updates; call after `recoverAgents`. */
export function recoverTasks(master: Master, store: CheckpointStore): RecoveryReport {
  const state = store.state;
  const now = bootId();
  const sameBoot = state.bootId === undefined || now === undefined || state.bootId === now;
  state.bootId = now;
  const report: RecoveryReport = { agents: master.agents.size, frameworks: 0, tasks: 0, killed: 0 };
  for (const id of state.removedFrameworks) master.removedFrameworks.add(id);
  for (const rec of [...state.frameworks.values()]) {
    if (rec.info.checkpoint === true) {
      master.recoverFramework(rec.id, rec.info);
      report.frameworks++;
    }
  }
  master.tasks.restoreCompleted(
    [...state.completed.values()].filter((c) => master.frameworks.has(c.frameworkId)),
  );
  const tasks = [...state.tasks.values()];
  const forget = (task: TaskRecord) => {
    if (sameBoot && killProcess(task)) report.killed++;
    store.append({ t: "task_removed", frameworkId: task.frameworkId, taskId: task.taskId });
  };
  const recoverable: TaskRecord[] = [];
  for (const task of tasks) {
    const ok = master.frameworks.has(task.frameworkId) && master.agents.has(task.agentId);
    if (ok) recoverable.push(task);
    else forget(task);
  }
  for (const rec of [...state.frameworks.values()]) {
    if (!master.frameworks.has(rec.id)) store.append({ t: "framework_forgotten", id: rec.id });
  }
  // Earlier updates first: they were generated before anything recovery reports.
  for (const [frameworkId, perTask] of state.updates) {
    const fw = master.frameworks.get(frameworkId);
    if (fw === undefined) continue;
    for (const statuses of perTask.values()) for (const s of statuses) fw.updates.enqueue(s);
  }
  for (const task of recoverable) {
    const fw = master.frameworks.get(task.frameworkId)!;
    const agent = master.agents.get(task.agentId)!;
    master.tasks.recoverTask(fw, agent, task, sameBoot);
    if (!isTerminalState(task.state)) report.tasks++;
  }
  store.compact();
  return report;
}

/** SIGKILL to a recorded task's process group if it still runs; true if it did. */
function killProcess(task: TaskRecord): boolean {
  const run = task.run;
  if (run?.kind !== "process" || run.pid === undefined || isTerminalState(task.state)) return false;
  if (!isRunning(run.pid, run.startTime)) return false;
  signalGroup(run.pid, "SIGKILL");
  return true;
}
