/**
 * Validation of tasks in a LAUNCH / LAUNCH_GROUP (the master's
 * `validation::task`): a failure is reported as TASK_ERROR with
 * REASON_TASK_INVALID and this message. Pure.
 */
import type { Resource, TaskInfo } from "../proto/messages.ts";
import type { ResourceBag } from "../resources/bag.ts";

/** Mesos' `validateID`: no empty, ".", "..", path separators or control characters. */
export function invalidId(kind: string, id: string): string | undefined {
  if (id === "" || id === "." || id === "..") return `${kind} '${id}' is invalid`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[/\\\u0000-\u001f\u007f]/.test(id)) return `${kind} '${id}' contains invalid characters`;
  return undefined;
}

export function invalidResource(r: Resource): string | undefined {
  const bad = (why: string) => `Invalid resource ${r.name}: ${why}`;
  if (r.type === "SCALAR") {
    const v = r.scalar?.value;
    if (v === undefined || !Number.isFinite(v) || v < 0) return bad("scalar value must be >= 0");
  } else if (r.type === "RANGES") {
    if (r.ranges === undefined) return bad("ranges missing");
    if ((r.ranges.range ?? []).some((x) => x.end < x.begin)) return bad("range end < begin");
  } else if (r.set === undefined) {
    return bad("set missing");
  }
  return undefined;
}

export interface TaskCheckContext {
  agentId: string;
  /** A non-terminal task of the framework already has this id. */
  taskIdInUse(taskId: string): boolean;
  /** What remains of the offers at this point of the ACCEPT. */
  pool: ResourceBag;
  /** In a task group, tasks get their executor from the group. */
  inGroup: boolean;
}

export function validateTask(task: TaskInfo, ctx: TaskCheckContext): string | undefined {
  const id = task.task_id.value;
  const badId = invalidId("Task ID", id);
  if (badId !== undefined) return badId;
  if (ctx.taskIdInUse(id)) return `Task has duplicate ID: ${id}`;
  if (task.agent_id.value !== ctx.agentId) {
    return `Task uses invalid agent: ${task.agent_id.value} (the offers are from ${ctx.agentId})`;
  }
  const resources = task.resources ?? [];
  if (resources.length === 0) return "Task uses no resources";
  for (const r of resources) {
    const bad = invalidResource(r);
    if (bad !== undefined) return bad;
  }
  if (ctx.inGroup) {
    if (task.executor !== undefined) return "'TaskInfo.executor' must not be set in a task group";
    if (task.command === undefined) return "Task in a task group must have a 'command'";
  } else if ((task.command === undefined) === (task.executor === undefined)) {
    return "Task should have at least one (but not both) of CommandInfo or ExecutorInfo present";
  }
  return undefined;
}
