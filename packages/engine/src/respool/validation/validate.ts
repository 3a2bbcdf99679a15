import type { Resources } from "../../resources/resources.ts";
import { normalizePoolResources, type PoolConfigInput } from "../config.ts";
import { joinPoolPath, lastSegment, parentPath } from "../path.ts";
import { findPool, type PoolTree } from "../tree.ts";
import type { PoolChange } from "./context.ts";
import type { PoolValidationError } from "./errors.ts";
import { checkChildrenFit } from "./rules/children.ts";
import { checkControllerLimit } from "./rules/controller-limit.ts";
import { checkCreateFile, checkPath } from "./rules/create-path.ts";
import { checkCycle } from "./rules/cycle.ts";
import { checkIdle, checkLeaf, type PoolDeleteFacts } from "./rules/delete.ts";
import { checkParentHasNoJobs, type PoolJobsFacts } from "./rules/jobs.ts";
import { checkLimitWithinParent, checkParentExists, checkParentUnchanged } from "./rules/parent.ts";
import { checkNotRoot, checkResourceEntries } from "./rules/pool-config.ts";
import { checkReservationsFitParent } from "./rules/reservations.ts";
import { checkUniqueName } from "./rules/siblings.ts";

export interface TreeSnapshot {
  readonly tree: PoolTree;
  /** The cluster capacity: the root's reservation and limit. */
  readonly capacity: Resources;
}

/**
 * Rules 2–6 in the document's order (peloton-semantics.md §2, Peloton's
 * `NewResourcePoolConfigValidator` list). A cycle or a missing parent leaves
 * nothing to compare against, so the parent-dependent rules are skipped then;
 * otherwise every rule runs and all errors come back.
 */
function checkPlacement(change: PoolChange): PoolValidationError[] {
  const cycle = checkCycle(change);
  if (cycle.length > 0) return cycle;
  const missing = checkParentExists(change);
  if (missing.length > 0) return missing;
  return [
    ...checkParentUnchanged(change),
    ...checkLimitWithinParent(change),
    ...checkUniqueName(change),
    ...checkReservationsFitParent(change),
  ];
}

/**
 * `respool create <path> <file>`. `parentJobs`: the parent's jobs, when the
 * caller knows them (a pool with jobs gets no child).
 */
export function validateCreate(
  snapshot: TreeSnapshot,
  request: {
    readonly path: string;
    readonly config: PoolConfigInput;
    readonly parentJobs?: PoolJobsFacts;
  },
): PoolValidationError[] {
  const { path, config } = request;
  const rootError = checkNotRoot(path);
  if (rootError.length > 0) return rootError;
  const pathErrors = checkPath(path);
  if (pathErrors.length > 0) return pathErrors;
  const parent = parentPath(path)!;
  const change: PoolChange = {
    operation: "create",
    ...snapshot,
    path,
    name: config.name,
    parentPath: parent,
    parent: findPool(snapshot.tree, parent),
    existing: null,
    config,
    resources: normalizePoolResources(config.resources),
  };
  return [
    ...checkCreateFile(path, config),
    ...checkResourceEntries(path, config.resources),
    ...checkPlacement(change),
    ...checkControllerLimit(change),
    ...checkParentHasNoJobs(path, parent, request.parentJobs),
  ];
}

/** `respool update <path> <file>`: same rules; the pool exists and keeps its parent. */
export function validateUpdate(
  snapshot: TreeSnapshot,
  request: { readonly path: string; readonly config: PoolConfigInput },
): PoolValidationError[] {
  const { path, config } = request;
  const rootError = checkNotRoot(path);
  if (rootError.length > 0) return rootError;
  const existing = findPool(snapshot.tree, path);
  if (!existing?.parent) return [{ code: "POOL_NOT_FOUND", pool: path, values: {} }];
  const change: PoolChange = {
    operation: "update",
    ...snapshot,
    path,
    name: config.name,
    parentPath: existing.parent.path,
    parent: existing.parent,
    existing,
    config,
    resources: normalizePoolResources(config.resources),
  };
  // A configuration naming the pool itself as parent is the cycle of rule 2.
  const selfParent = config.parent === path ? checkCycle({ ...change, parentPath: path }) : [];
  return [
    ...checkResourceEntries(path, config.resources),
    ...(selfParent.length > 0 ? selfParent : checkPlacement(change)),
    ...checkChildrenFit(change),
    ...checkControllerLimit(change),
  ];
}

/**
 * Moving a pool under another parent keeps its settings; rules 2–5 apply at
 * the new place, and the new parent has no jobs (`newParentJobs`, when known).
 */
export function validateMove(
  snapshot: TreeSnapshot,
  request: {
    readonly path: string;
    readonly newParentPath: string;
    readonly newParentJobs?: PoolJobsFacts;
  },
): PoolValidationError[] {
  const { path, newParentPath } = request;
  const rootError = checkNotRoot(path);
  if (rootError.length > 0) return rootError;
  const existing = findPool(snapshot.tree, path);
  if (!existing?.record) return [{ code: "POOL_NOT_FOUND", pool: path, values: {} }];
  const change: PoolChange = {
    operation: "move",
    ...snapshot,
    path,
    name: lastSegment(path),
    parentPath: newParentPath,
    parent: findPool(snapshot.tree, newParentPath),
    existing,
    config: null,
    resources: existing.record.resources,
  };
  const placement = checkPlacement(change);
  // Into a cycle or a missing parent there is nothing to strand.
  if (placement.some((e) => e.code.startsWith("PARENT_IS") || e.code === "PARENT_NOT_FOUND"))
    return placement;
  return [...placement, ...checkParentHasNoJobs(path, newParentPath, request.newParentJobs)];
}

/** The path a pool would have after a move, for callers that rename subtrees. */
export function movedPath(path: string, newParentPath: string): string {
  return joinPoolPath(newParentPath, lastSegment(path));
}

/** `respool delete <path>`: only an idle leaf, never the root. */
export function validateDelete(
  snapshot: { readonly tree: PoolTree },
  request: { readonly path: string; readonly facts: PoolDeleteFacts },
): PoolValidationError[] {
  const rootError = checkNotRoot(request.path);
  if (rootError.length > 0) return rootError;
  const node = findPool(snapshot.tree, request.path);
  if (!node) return [{ code: "POOL_NOT_FOUND", pool: request.path, values: {} }];
  return [...checkLeaf(node), ...checkIdle(node, request.facts)];
}
