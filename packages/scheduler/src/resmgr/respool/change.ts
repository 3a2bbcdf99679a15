/**
 * A requested change of the pool tree, judged against a snapshot with the
 * engine's rules (peloton-semantics.md §2), and the records it would leave.
 */
import {
  findPool,
  lastSegment,
  type PoolValidationError,
  parentPath,
  validateCreate,
  validateDelete,
  validateUpdate,
} from "@peloton/engine";
import type { PoolRecord } from "@peloton/storage";
import { type PoolConfig, ruleInput, settingsOf } from "./config.ts";
import type { PoolSnapshot } from "./snapshot.ts";

export type PoolChangeRequest =
  | { readonly action: "create"; readonly path: string; readonly config: PoolConfig }
  | { readonly action: "update"; readonly path: string; readonly config: PoolConfig }
  | { readonly action: "delete"; readonly path: string };

/** What a judgement reads beyond the snapshot: a few names of the jobs a create would strand. */
export interface ChangeFacts {
  readonly parentJobNames?: readonly string[];
}

/** Every broken rule, in the document's order; empty when the change may be made. */
export function judgeChange(
  snapshot: PoolSnapshot,
  request: PoolChangeRequest,
  facts: ChangeFacts = {},
): PoolValidationError[] {
  switch (request.action) {
    case "create": {
      const parent = parentPath(request.path);
      const jobs = parent === null ? 0 : (snapshot.jobs.get(parent) ?? 0);
      return validateCreate(snapshot, {
        path: request.path,
        config: ruleInput(request.config),
        parentJobs: { count: jobs, names: facts.parentJobNames ?? [] },
      });
    }
    case "update":
      return [
        ...checkNameKept(snapshot, request.path, request.config),
        ...validateUpdate(snapshot, { path: request.path, config: ruleInput(request.config) }),
      ];
    case "delete": {
      const usage = snapshot.usage.get(request.path);
      return validateDelete(snapshot, {
        path: request.path,
        facts: {
          jobs: snapshot.jobs.get(request.path) ?? 0,
          allocation: usage?.allocation,
          demand: usage?.demand,
        },
      });
    }
  }
}

/**
 * An update keeps the pool's name: its path is its identity here (URLs, the
 * CLI, history), so renaming is not an update (Peloton's CLI refuses it too:
 * "resource pool name in path and config don't match").
 */
function checkNameKept(
  snapshot: PoolSnapshot,
  path: string,
  config: PoolConfig,
): PoolValidationError[] {
  if (!findPool(snapshot.tree, path)?.record) return []; // validateUpdate reports it
  const expected = lastSegment(path);
  if (config.name === expected) return [];
  return [
    {
      code: "NAME_MISMATCH_PATH",
      pool: path,
      field: "name",
      values: { name: config.name, expected },
    },
  ];
}

/** The pool whose job names a judgement of `request` would give (a create under a pool with jobs). */
export function poolNeedingJobNames(
  snapshot: PoolSnapshot,
  request: PoolChangeRequest,
): PoolRecord | null {
  if (request.action !== "create") return null;
  const parent = parentPath(request.path);
  if (parent === null || (snapshot.jobs.get(parent) ?? 0) === 0) return null;
  return snapshot.records.find((r) => r.path === parent) ?? null;
}

/**
 * The pool records after a valid change (pure). A created pool gets `newPool`'s
 * id and time and comes last, as creation order has it.
 */
export function recordsAfter(
  snapshot: PoolSnapshot,
  request: PoolChangeRequest,
  newPool: { readonly id: string; readonly at: Date; readonly actor: string },
): PoolRecord[] {
  const records = [...snapshot.records];
  switch (request.action) {
    case "create": {
      const parent = findPool(snapshot.tree, parentPath(request.path) ?? "/");
      const seq = records.reduce((max, r) => Math.max(max, r.seq), 0) + 1;
      records.push({
        id: newPool.id,
        seq,
        parentId: parent?.record?.id ?? null,
        path: request.path,
        name: request.config.name,
        ...settingsOf(request.config),
        version: 1,
        createdBy: newPool.actor,
        createdAt: newPool.at,
        updatedAt: newPool.at,
      });
      return records;
    }
    case "update":
      return records.map((r) =>
        r.path === request.path
          ? { ...r, ...settingsOf(request.config), version: r.version + 1, updatedAt: newPool.at }
          : r,
      );
    case "delete":
      return records.filter((r) => r.path !== request.path);
  }
}
