/**
 * Placement: a batch of admitted tasks onto a snapshot of hosts, Kubernetes'
 * scheduling cycle and Nomad's stack in one visible order:
 *
 *   gangs in task order ─► per task: remembered failure? ─► candidates
 *     (volume host | previous host + hosts from the rotating offset)
 *     ─► filters (the table in filters/pipeline.ts: static ones, then dynamic)
 *     ─► scorers (pack, spread, sticky; weights by strategy) on at most
 *        `hostsToScore` feasible hosts ─► best total, ties by hostname
 *     ─► commit to the snapshot copy ─► gang whole, or undone
 *
 * Deterministic: hosts in hostname order, the scan offset carried from task
 * to task (and batch to batch through `nextOffset`), no randomness.
 */

import { Feasibility, FITS, type TaskClass } from "./feasibility.ts";
import {
  DEFAULT_HOSTS_TO_SCORE,
  DEFAULT_SPREAD_ATTRIBUTE,
  type PlacementHost,
  type PlacementOptions,
  type PlacementTask,
} from "./input.ts";
import type {
  GangShortfall,
  PlacementAsk,
  PlacementResult,
  Rejections,
  TaskPlacement,
  UnplacedReason,
  UnplacedTask,
} from "./result.ts";
import { TaskScorer } from "./scoring.ts";
import { validatePlacementInput } from "./validate.ts";
import { type Commit, WorkingHosts } from "./working-hosts.ts";

interface Batch {
  readonly w: WorkingHosts;
  readonly feasibility: Feasibility;
  readonly limit: number;
  /** Each host's rejection during the current scan. */
  readonly scratch: Uint8Array;
  cursor: number;
}

type TaskOutcome =
  | { ok: true; commit: Commit; placement: TaskPlacement }
  | {
      ok: false;
      reason: UnplacedReason;
      rejections: Rejections;
      resolvable: boolean;
      hostsEvaluated: number;
    };

export function placeTasks(
  hosts: readonly PlacementHost[],
  tasks: readonly PlacementTask[],
  options: PlacementOptions = {},
): PlacementResult {
  // 0. Bad input is refused whole, each problem named; nothing is decided.
  const errors = validatePlacementInput(hosts, tasks, options);
  if (errors.length > 0) return { ok: false, errors };

  // 1. The snapshot copy, hosts in hostname order.
  const w = new WorkingHosts(hosts, options.spreadAttribute ?? DEFAULT_SPREAD_ATTRIBUTE);
  const batch: Batch = {
    w,
    feasibility: new Feasibility(w),
    limit: options.hostsToScore ?? DEFAULT_HOSTS_TO_SCORE,
    scratch: new Uint8Array(w.size),
    cursor: w.size === 0 ? 0 : (options.startOffset ?? 0) % w.size,
  };

  // Each task's answer at its position, so the result keeps the task order.
  const answers: (TaskPlacement | UnplacedTask)[] = new Array(tasks.length);
  // 2. Gangs, in the order of their first task: all members placed, or none.
  for (const gang of gangsOf(tasks)) {
    if (gang.length === 1) {
      const i = gang[0]!;
      const o = placeTask(batch, tasks[i]!);
      answers[i] = o.ok ? o.placement : unplacedOf(tasks[i]!, o, 1, 0, o.resolvable);
      continue;
    }
    const outcomes = gang.map((i) => placeTask(batch, tasks[i]!));
    const commits: Commit[] = [];
    for (const o of outcomes) if (o.ok) commits.push(o.commit);
    if (commits.length === gang.length) {
      gang.forEach((i, j) => {
        const o = outcomes[j]!;
        if (o.ok) answers[i] = o.placement;
      });
      continue;
    }
    for (let j = commits.length - 1; j >= 0; j--) w.undo(commits[j]!);
    // The gang starts whole or not at all: one member that never fits, and neither does it.
    const resolvable = outcomes.every((o) => o.ok || o.resolvable);
    gang.forEach((i, j) => {
      answers[i] = unplacedOf(tasks[i]!, outcomes[j]!, gang.length, commits.length, resolvable);
    });
  }
  const placements: TaskPlacement[] = [];
  const unplaced: UnplacedTask[] = [];
  for (const a of answers) {
    if ("reason" in a) unplaced.push(a);
    else placements.push(a);
  }
  return { ok: true, placements, unplaced, nextOffset: batch.cursor };
}

/** A member of a gang that was not placed whole, or a task that fits nowhere. */
function unplacedOf(
  task: PlacementTask,
  o: TaskOutcome,
  gangSize: number,
  fitting: number,
  resolvable: boolean,
): UnplacedTask {
  const gang: GangShortfall | undefined =
    gangSize > 1 ? { gangId: task.gangId!, size: gangSize, fitting, memberFit: o.ok } : undefined;
  if (!gang && o.ok) throw new Error(`${task.taskId} fits alone but was not placed`);
  return {
    taskId: task.taskId,
    reason: gang || o.ok ? "GANG_INCOMPLETE" : o.reason,
    rejections: o.ok ? {} : o.rejections,
    hostsEvaluated: o.ok ? o.placement.hostsEvaluated : o.hostsEvaluated,
    ask: askOf(task),
    ...(gang ? { gang } : {}),
    resolvable,
  };
}

function placeTask(b: Batch, task: PlacementTask): TaskOutcome {
  const { w, feasibility, scratch } = b;
  const n = w.size;
  // No host at all: nothing that ends or is preempted changes that.
  if (n === 0) {
    return { ok: false, reason: "NO_HOSTS", rejections: {}, resolvable: false, hostsEvaluated: 0 };
  }
  const check = feasibility.classOf(task);

  // 3. The same asks failed before and no changed host fits now: no scan.
  const known = feasibility.recallFailure(check);
  if (known) return { ok: false, reason: "NO_HOST_FITS", ...known, hostsEvaluated: n };

  const scorer = new TaskScorer(w, task, check.ask);
  let best = -1;
  let bestScore = -1;
  let scored = 0;
  let evaluated = 0;

  if (task.volumeHost !== undefined) {
    // 4a. A stateful instance: its volume's host is the only candidate.
    const only = w.indexOf.get(task.volumeHost) ?? -1;
    if (only >= 0 && feasibility.firstRejection(check, only) === FITS) {
      best = only;
      scored = 1;
    }
    evaluated = 1;
  } else {
    // 4b. The previous host first (sticky), so the window cannot miss it...
    const previous =
      task.previousHost === undefined ? -1 : (w.indexOf.get(task.previousHost) ?? -1);
    if (previous >= 0) {
      evaluated++;
      const code = feasibility.firstRejection(check, previous);
      scratch[previous] = code;
      if (code === FITS) {
        best = previous;
        bestScore = scorer.total(previous);
        scored++;
      }
    }
    // 4c–6. ...then hosts from the rotating offset: filters on each, scorers on the
    // feasible ones, until `limit` were scored or every host was looked at. The
    // highest total wins; ties go to the first hostname (the lower index).
    let h = b.cursor;
    for (let scanned = 0; scanned < n && scored < b.limit; scanned++) {
      if (h !== previous) {
        evaluated++;
        const code = feasibility.firstRejection(check, h);
        scratch[h] = code;
        if (code === FITS) {
          scored++;
          const s = scorer.total(h);
          if (s > bestScore || (s === bestScore && h < best)) {
            best = h;
            bestScore = s;
          }
        }
      }
      h = h + 1 === n ? 0 : h + 1;
    }
    b.cursor = h;
  }

  if (best < 0) {
    // Nothing fits: every host's first rejection, remembered for the same asks.
    const codes = task.volumeHost === undefined ? scratch.slice() : allRejections(b, check);
    const shortfall = feasibility.rememberFailure(check, codes);
    return { ok: false, reason: "NO_HOST_FITS", ...shortfall, hostsEvaluated: n };
  }

  // 7. Commit to the snapshot copy: the next task sees the host as it is now.
  const breakdown = scorer.breakdown(best);
  const commit = w.commit(task, best);
  const host = w.hosts[best]!;
  return {
    ok: true,
    commit,
    placement: {
      taskId: task.taskId,
      hostname: host.hostname,
      agentId: host.agentId,
      ports: { static: [...commit.staticPorts], dynamic: commit.dynamicPorts },
      strategy: task.strategy,
      score: breakdown,
      hostsEvaluated: evaluated,
      hostsScored: scored,
    },
  };
}

/** Every host's first rejection: the full count behind a task's "why pending". */
function allRejections(b: Batch, check: TaskClass): Uint8Array {
  const codes = new Uint8Array(b.w.size);
  for (let h = 0; h < codes.length; h++) codes[h] = b.feasibility.firstRejection(check, h);
  return codes;
}

/**
 * Task positions grouped by gang id, in the order of each gang's first task;
 * a task without a gang id is a gang of one.
 */
function gangsOf(tasks: readonly PlacementTask[]): number[][] {
  const gangs: number[][] = [];
  const byId = new Map<string, number[]>();
  for (let i = 0; i < tasks.length; i++) {
    const id = tasks[i]!.gangId;
    if (id === undefined) {
      gangs.push([i]);
      continue;
    }
    let g = byId.get(id);
    if (!g) {
      g = [];
      byId.set(id, g);
      gangs.push(g);
    }
    g.push(i);
  }
  return gangs;
}

function askOf(task: PlacementTask): PlacementAsk {
  return {
    resources: { ...task.resources },
    dynamicPorts: task.ports.dynamic,
    staticPorts: [...task.ports.static],
    ...(task.constraint ? { constraint: task.constraint } : {}),
    ...(task.volumeHost !== undefined ? { volumeHost: task.volumeHost } : {}),
  };
}
