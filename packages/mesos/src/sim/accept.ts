/**
 * ACCEPT: check the offers, then apply the operations in order against the
 * pooled offer resources (LAUNCH, LAUNCH_GROUP, RESERVE, UNRESERVE, CREATE,
 * DESTROY). What no operation used goes back to the agent, refused to this
 * framework for `filters.refuse_seconds`.
 */
import type { AcceptBody } from "../proto/calls.ts";
import { isTerminalState } from "../proto/enums.ts";
import type { TaskInfo } from "../proto/messages.ts";
import type { OfferOperation } from "../proto/operations.ts";
import { ResourceBag } from "../resources/bag.ts";
import type { SimAgent } from "./agent.ts";
import { refuseMillis } from "./filters.ts";
import type { Master } from "./master.ts";
import type { SimFramework, SimOffer } from "./model.ts";
import { applyResourceOperation } from "./resource-operations.ts";
import { masterStatus } from "./status.ts";
import { invalidId, validateTask } from "./task-validation.ts";

export function acceptOffers(master: Master, fw: SimFramework, body: AcceptBody): void {
  const operations = body.operations ?? [];
  const checked = checkOffers(
    master,
    fw,
    body.offer_ids.map((o) => o.value),
  );
  if (!checked.ok) {
    for (const offer of checked.valid) master.allocator.take(offer);
    dropLaunches(fw, operations, `Task launched with invalid offers: ${checked.message}`);
    master.allocator.schedule();
    return;
  }
  const first = checked.valid[0]!;
  const agent = master.agents.get(first.agentId)!;
  const pool = new ResourceBag();
  for (const offer of checked.valid) {
    master.allocator.take(offer);
    pool.add(offer.resources);
  }
  const launchedHere = new Set<string>();
  for (const op of operations) applyOperation(master, fw, agent, pool, op, launchedHere);
  master.allocator.refuse(fw, agent.id, first.role, pool, refuseMillis(body.filters));
  master.allocator.schedule();
}

type OfferCheck =
  | { ok: true; valid: SimOffer[] }
  | { ok: false; valid: SimOffer[]; message: string };

function checkOffers(master: Master, fw: SimFramework, ids: readonly string[]): OfferCheck {
  const valid: SimOffer[] = [];
  let message: string | undefined;
  const seen = new Set<string>();
  for (const id of ids) {
    const offer = master.allocator.offers.get(id);
    if (seen.has(id)) message ??= `Duplicate offer ${id} in offer list`;
    seen.add(id);
    if (offer === undefined || offer.frameworkId !== fw.id) {
      message ??= `Offer ${id} is no longer valid`;
      continue;
    }
    if (valid.length > 0 && valid[0]!.agentId !== offer.agentId) {
      message ??= "Aggregated offers must belong to one single agent";
    }
    valid.push(offer);
  }
  if (ids.length === 0) message ??= "No offers specified";
  return message === undefined ? { ok: true, valid } : { ok: false, valid, message };
}

/** Invalid offers: every task of the call is dropped by the master (no uuid). */
function dropLaunches(
  fw: SimFramework,
  operations: readonly OfferOperation[],
  message: string,
): void {
  for (const task of operations.flatMap(tasksOf)) {
    fw.sendStatus(
      masterStatus({
        taskId: task.task_id.value,
        agentId: task.agent_id.value,
        state: fw.partitionAware ? "TASK_DROPPED" : "TASK_LOST",
        reason: "REASON_INVALID_OFFERS",
        message,
      }),
    );
  }
}

function tasksOf(op: OfferOperation): TaskInfo[] {
  if (op.type === "LAUNCH") return op.launch?.task_infos ?? [];
  if (op.type === "LAUNCH_GROUP") return op.launch_group?.task_group.tasks ?? [];
  return [];
}

function applyOperation(
  master: Master,
  fw: SimFramework,
  agent: SimAgent,
  pool: ResourceBag,
  op: OfferOperation,
  launchedHere: Set<string>,
): void {
  const taskIdInUse = (id: string) => {
    const t = fw.tasks.get(id);
    return launchedHere.has(id) || (t !== undefined && !isTerminalState(t.state));
  };
  const error = (task: TaskInfo, message: string) =>
    fw.sendStatus(
      masterStatus({
        taskId: task.task_id.value,
        agentId: task.agent_id.value,
        state: "TASK_ERROR",
        reason: "REASON_TASK_INVALID",
        message,
      }),
    );
  switch (op.type) {
    case "LAUNCH":
      for (const task of op.launch?.task_infos ?? []) {
        const problem =
          validateTask(task, { agentId: agent.id, taskIdInUse, pool, inGroup: false }) ??
          fits(pool, task.resources ?? []);
        if (problem !== undefined) {
          error(task, problem);
          continue;
        }
        const resources = ResourceBag.of(task.resources);
        pool.subtract(resources);
        launchedHere.add(task.task_id.value);
        master.tasks.launch(fw, agent, task, resources);
      }
      return;
    case "LAUNCH_GROUP":
      launchGroup(master, fw, agent, pool, op, launchedHere, taskIdInUse, error);
      return;
    default: {
      const problem = applyResourceOperation(master.config.sandboxRoot, agent, pool, op);
      if (problem !== undefined) master.config.log(`dropped ${op.type} on ${agent.id}: ${problem}`);
      else master.checkpointAgent(agent);
      if (op.id !== undefined) {
        fw.send({
          type: "UPDATE_OPERATION_STATUS",
          update_operation_status: {
            status: {
              operation_id: op.id,
              state: problem === undefined ? "OPERATION_FINISHED" : "OPERATION_ERROR",
              agent_id: { value: agent.id },
              ...(problem !== undefined ? { message: problem } : {}),
            },
          },
        });
      }
    }
  }
}

function launchGroup(
  master: Master,
  fw: SimFramework,
  agent: SimAgent,
  pool: ResourceBag,
  op: Extract<OfferOperation, { type: "LAUNCH_GROUP" }>,
  launchedHere: Set<string>,
  taskIdInUse: (id: string) => boolean,
  error: (task: TaskInfo, message: string) => void,
): void {
  const { executor, task_group } = op.launch_group;
  const tasks = task_group.tasks ?? [];
  const key = `${agent.id}/${executor.executor_id.value}`;
  const existing = fw.executors.get(key);
  // A running executor's resources are already charged; a new one needs its own.
  const need = existing === undefined ? ResourceBag.of(executor.resources) : new ResourceBag();
  const scratch = pool.clone();
  let problem =
    invalidId("Executor ID", executor.executor_id.value) ??
    (executor.type === "CUSTOM" ? "Task groups need the DEFAULT executor" : undefined) ??
    (tasks.length === 0 ? "Task group is empty" : undefined) ??
    fits(scratch, need.toResources());
  scratch.subtract(need);
  const ids = new Set<string>();
  for (const task of tasks) {
    if (problem !== undefined) break;
    if (ids.has(task.task_id.value)) problem = `Task has duplicate ID: ${task.task_id.value}`;
    ids.add(task.task_id.value);
    problem ??=
      validateTask(task, { agentId: agent.id, taskIdInUse, pool: scratch, inGroup: true }) ??
      fits(scratch, task.resources ?? []);
    scratch.subtract(task.resources ?? []);
  }
  if (problem !== undefined) {
    // All or nothing: one bad task fails the whole group.
    for (const task of tasks) error(task, problem);
    return;
  }
  const group = existing ?? {
    executorId: executor.executor_id.value,
    agentId: agent.id,
    resources: need,
    containerId: master.newContainerId(),
    tasks: new Set<string>(),
  };
  if (existing === undefined) {
    fw.executors.set(key, group);
    agent.used.add(need);
    pool.subtract(need);
  }
  for (const task of tasks) {
    const resources = ResourceBag.of(task.resources);
    pool.subtract(resources);
    launchedHere.add(task.task_id.value);
    master.tasks.launch(fw, agent, task, resources, group);
  }
}

function fits(pool: ResourceBag, wanted: TaskInfo["resources"] & object): string | undefined {
  if (pool.contains(wanted)) return undefined;
  return `Task uses more resources ${summary(ResourceBag.of(wanted))} than available ${summary(pool)}`;
}

function summary(bag: ResourceBag): string {
  return bag
    .toResources()
    .map((r) => {
      const role = r.role !== undefined && r.role !== "*" ? `(${r.role})` : "";
      const value =
        r.type === "SCALAR"
          ? String(r.scalar?.value)
          : r.type === "RANGES"
            ? `[${(r.ranges?.range ?? []).map((x) => `${x.begin}-${x.end}`).join(", ")}]`
            : `{${(r.set?.item ?? []).join(", ")}}`;
      return `${r.name}${role}:${value}`;
    })
    .join("; ");
}
