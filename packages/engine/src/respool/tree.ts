import type { PoolResources } from "./config.ts";
import { joinPoolPath, type PathProblem, parsePoolPath, ROOT_PATH } from "./path.ts";

/** A stored pool, as the storage gateway hands it over (creation order). */
export interface PoolRecord {
  readonly id: string;
  /** null: the pool hangs directly under the root (the root itself is never a record). */
  readonly parentId: string | null;
  readonly path: string;
  readonly name: string;
  readonly resources: PoolResources;
  readonly slackLimitMaxPercent: number;
  readonly controllerLimitMaxPercent: number | null;
}

export interface PoolNode<R extends PoolRecord = PoolRecord> {
  readonly path: string;
  readonly name: string;
  /** 0 for the root. */
  readonly depth: number;
  /** null for the root, which no user creates (peloton-semantics.md §2, rule 1). */
  readonly record: R | null;
  readonly parent: PoolNode<R> | null;
  /** In creation order: the order the entitlement calculator serves siblings in. */
  readonly children: readonly PoolNode<R>[];
}

export interface PoolTree<R extends PoolRecord = PoolRecord> {
  readonly root: PoolNode<R>;
  readonly byPath: ReadonlyMap<string, PoolNode<R>>;
  readonly byId: ReadonlyMap<string, PoolNode<R>>;
}

export type TreeBuildError =
  | { code: "DUPLICATE_ID"; id: string }
  | { code: "ROOT_RECORD"; id: string }
  | { code: "INVALID_PATH"; id: string; path: string; problem: PathProblem }
  | { code: "PARENT_NOT_FOUND"; id: string; path: string; parentId: string }
  | { code: "PATH_MISMATCH"; id: string; path: string; expected: string }
  | { code: "DUPLICATE_PATH"; id: string; path: string }
  | { code: "CYCLE"; id: string; path: string };

export type TreeBuildResult<R extends PoolRecord> =
  | { ok: true; tree: PoolTree<R> }
  | { ok: false; errors: TreeBuildError[] };

interface MutableNode<R extends PoolRecord> {
  path: string;
  name: string;
  depth: number;
  record: R | null;
  parent: MutableNode<R> | null;
  children: MutableNode<R>[];
}

/**
 * Builds the tree from flat records. Records come in creation order, so siblings
 * keep that order; a parent may come after its child (a moved pool), so parents
 * are resolved in a second pass. Every record must be reachable from the root
 * and its stored path must equal its parent's path plus its name.
 */
export function buildPoolTree<R extends PoolRecord>(records: readonly R[]): TreeBuildResult<R> {
  const errors: TreeBuildError[] = [];
  const root: MutableNode<R> = {
    path: ROOT_PATH,
    name: "",
    depth: 0,
    record: null,
    parent: null,
    children: [],
  };
  const byId = new Map<string, MutableNode<R>>();
  for (const r of records) {
    if (byId.has(r.id)) errors.push({ code: "DUPLICATE_ID", id: r.id });
    else if (r.path === ROOT_PATH) errors.push({ code: "ROOT_RECORD", id: r.id });
    else {
      const parsed = parsePoolPath(r.path);
      if (!parsed.ok)
        errors.push({ code: "INVALID_PATH", id: r.id, path: r.path, problem: parsed });
      byId.set(r.id, {
        path: r.path,
        name: r.name,
        depth: 0,
        record: r,
        parent: null,
        children: [],
      });
    }
  }
  for (const r of records) {
    const node = byId.get(r.id);
    if (!node || node.record !== r) continue;
    const parent = r.parentId === null ? root : byId.get(r.parentId);
    if (!parent) {
      errors.push({ code: "PARENT_NOT_FOUND", id: r.id, path: r.path, parentId: r.parentId ?? "" });
      continue;
    }
    node.parent = parent;
    parent.children.push(node);
  }
  // Walk from the root: paths and depths follow the parent links; anything not
  // reached hangs off a cycle of parent ids.
  const byPath = new Map<string, MutableNode<R>>([[ROOT_PATH, root]]);
  const reached = new Set<MutableNode<R>>();
  const stack: MutableNode<R>[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i]!;
      reached.add(child);
      child.depth = node.depth + 1;
      const expected = joinPoolPath(node.path, child.name);
      const id = child.record!.id;
      if (child.path !== expected)
        errors.push({ code: "PATH_MISMATCH", id, path: child.path, expected });
      if (byPath.has(child.path)) errors.push({ code: "DUPLICATE_PATH", id, path: child.path });
      else byPath.set(child.path, child);
      stack.push(child);
    }
  }
  for (const node of byId.values()) {
    if (node.parent && !reached.has(node)) {
      errors.push({ code: "CYCLE", id: node.record!.id, path: node.path });
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, tree: { root, byPath, byId } };
}

export function describeTreeBuildError(e: TreeBuildError): string {
  switch (e.code) {
    case "DUPLICATE_ID":
      return `pool id ${e.id} appears twice`;
    case "ROOT_RECORD":
      return `pool ${e.id} claims the root path /, which is implicit`;
    case "INVALID_PATH":
      return `pool ${e.id} has an invalid path "${e.path}" (${e.problem.problem})`;
    case "PARENT_NOT_FOUND":
      return `${e.path}: its parent ${e.parentId} does not exist`;
    case "PATH_MISMATCH":
      return `${e.path}: its parent and name give the path ${e.expected}`;
    case "DUPLICATE_PATH":
      return `${e.path} appears twice`;
    case "CYCLE":
      return `${e.path}: its parents form a cycle and never reach the root`;
  }
}

export function findPool<R extends PoolRecord>(
  tree: PoolTree<R>,
  path: string,
): PoolNode<R> | undefined {
  return tree.byPath.get(path);
}

export function findPoolById<R extends PoolRecord>(
  tree: PoolTree<R>,
  id: string,
): PoolNode<R> | undefined {
  return tree.byId.get(id);
}

export function isLeafPool(node: PoolNode): boolean {
  return node.children.length === 0;
}

/**
 * Visits the root and every pool depth first, parents before children, siblings
 * in creation order. Returning `false` from `visit` skips the node's subtree.
 */
export function walkPools<R extends PoolRecord>(
  tree: PoolTree<R>,
  visit: (node: PoolNode<R>) => boolean | undefined,
): void {
  const stack: PoolNode<R>[] = [tree.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (visit(node) === false) continue;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
}

/** Every pool (not the root) in walk order. */
export function listPools<R extends PoolRecord>(tree: PoolTree<R>): PoolNode<R>[] {
  const out: PoolNode<R>[] = [];
  walkPools(tree, (n) => {
    if (n.record) out.push(n);
    return true;
  });
  return out;
}

/** The node's parent, grandparent, ... up to and including the root. */
export function ancestorsOf<R extends PoolRecord>(node: PoolNode<R>): PoolNode<R>[] {
  const out: PoolNode<R>[] = [];
  for (let p = node.parent; p; p = p.parent) out.push(p);
  return out;
}
