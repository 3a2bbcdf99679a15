import { KIND_COUNT, RESOURCE_KINDS } from "../resources/kinds.ts";
import { DEFAULT_SLACK_LIMIT_PERCENT } from "../respool/config.ts";
import {
  describeNameProblem,
  lastSegment,
  type NameProblem,
  parentPath,
  poolNameProblem,
  ROOT_PATH,
} from "../respool/path.ts";
import type { EntitlementPoolConfig } from "./input.ts";

/**
 * The pool tree as flat arrays, for a calculation without per-pool objects.
 * Index 0 is the root; pool `i` of the input is index `i + 1`, so every parent
 * has a smaller index than its children. Per-kind values sit at
 * `[index * KIND_COUNT + kind]`, kinds in the order cpu, gpu, memory, disk.
 */
export interface CompiledPools {
  readonly size: number;
  readonly paths: readonly string[];
  readonly indexOf: ReadonlyMap<string, number>;
  /** -1 for the root. */
  readonly parent: Int32Array;
  /** Children of `i` are `childList[childStart[i] .. childStart[i + 1])`, in input order. */
  readonly childStart: Int32Array;
  readonly childList: Int32Array;
  readonly maxChildren: number;
  readonly reservation: Float64Array;
  readonly limit: Float64Array;
  readonly share: Float64Array;
  readonly isStatic: Uint8Array;
  /** cpu 0; memory, disk, gpu: `reservation × maxPercent / 100` (Peloton's `initSlackLimit`). */
  readonly slackLimit: Float64Array;
}

export type PoolListError =
  | { code: "ROOT_LISTED"; index: number }
  | { code: "INVALID_PATH"; index: number; path: string; reason: NameProblem | "NOT_ABSOLUTE" }
  | { code: "DUPLICATE_PATH"; index: number; path: string }
  | { code: "PARENT_MISSING"; index: number; path: string; parent: string }
  | { code: "PARENT_AFTER_CHILD"; index: number; path: string; parent: string };

export type CompileResult =
  | { ok: true; pools: CompiledPools }
  | { ok: false; error: PoolListError };

/**
 * Checks the list shape of the data contract (peloton-semantics.md: "Pools are
 * listed parents before children, siblings in their order; the root is
 * implicit") and lays the tree out in arrays. Only each path's last segment is
 * checked: its parent was checked when it was listed.
 */
export function compilePools(list: readonly EntitlementPoolConfig[]): CompileResult {
  const size = list.length + 1;
  const paths: string[] = [ROOT_PATH];
  const indexOf = new Map<string, number>([[ROOT_PATH, 0]]);
  const parent = new Int32Array(size);
  parent[0] = -1;
  const childCount = new Int32Array(size + 1);
  for (let i = 0; i < list.length; i++) {
    const path = list[i]!.path;
    if (path === ROOT_PATH) return { ok: false, error: { code: "ROOT_LISTED", index: i } };
    if (!path.startsWith("/")) {
      return { ok: false, error: { code: "INVALID_PATH", index: i, path, reason: "NOT_ABSOLUTE" } };
    }
    const reason = poolNameProblem(lastSegment(path));
    if (reason) return { ok: false, error: { code: "INVALID_PATH", index: i, path, reason } };
    const p = parentPath(path)!;
    const pi = indexOf.get(p);
    if (pi === undefined) {
      const later = list.some((x, j) => j > i && x.path === p);
      const code = later ? "PARENT_AFTER_CHILD" : "PARENT_MISSING";
      return { ok: false, error: { code, index: i, path, parent: p } };
    }
    if (indexOf.has(path)) return { ok: false, error: { code: "DUPLICATE_PATH", index: i, path } };
    indexOf.set(path, i + 1);
    paths.push(path);
    parent[i + 1] = pi;
    childCount[pi] = childCount[pi]! + 1;
  }
  const childStart = new Int32Array(size + 1);
  let maxChildren = 0;
  for (let i = 0; i < size; i++) {
    childStart[i + 1] = childStart[i]! + childCount[i]!;
    if (childCount[i]! > maxChildren) maxChildren = childCount[i]!;
  }
  const childList = new Int32Array(size - 1);
  const fill = childStart.slice(0, size);
  for (let i = 1; i < size; i++) childList[fill[parent[i]!]!++] = i;

  const n = size * KIND_COUNT;
  const reservation = new Float64Array(n);
  const limit = new Float64Array(n);
  const share = new Float64Array(n);
  const isStatic = new Uint8Array(n);
  const slackLimit = new Float64Array(n);
  for (let i = 0; i < list.length; i++) {
    const pool = list[i]!;
    const multiplier = (pool.slackLimitMaxPercent ?? DEFAULT_SLACK_LIMIT_PERCENT) / 100;
    const base = (i + 1) * KIND_COUNT;
    for (let k = 0; k < KIND_COUNT; k++) {
      const cfg = pool.resources[RESOURCE_KINDS[k]!];
      reservation[base + k] = cfg.reservation;
      limit[base + k] = cfg.limit;
      share[base + k] = cfg.share;
      isStatic[base + k] = cfg.type === "STATIC" ? 1 : 0;
      // Revocable tasks never get non-revocable cpu: Peloton sets the cpu slack limit to 0.
      slackLimit[base + k] = k === 0 ? 0 : cfg.reservation * multiplier;
    }
  }
  return {
    ok: true,
    pools: {
      size,
      paths,
      indexOf,
      parent,
      childStart,
      childList,
      maxChildren,
      reservation,
      limit,
      share,
      isStatic,
      slackLimit,
    },
  };
}

export function describePoolListError(e: PoolListError): string {
  const at = `pools[${e.index}]`;
  switch (e.code) {
    case "ROOT_LISTED":
      return `${at}: the root / is implicit and must not be listed`;
    case "INVALID_PATH":
      return e.reason === "NOT_ABSOLUTE"
        ? `${at}: path "${e.path}" should begin with /`
        : `${at}: path "${e.path}": ${describeNameProblem(lastSegment(e.path), e.reason)}`;
    case "DUPLICATE_PATH":
      return `${at}: ${e.path} is listed twice`;
    case "PARENT_MISSING":
      return `${at}: ${e.path}'s parent ${e.parent} is not listed`;
    case "PARENT_AFTER_CHILD":
      return `${at}: ${e.path} is listed before its parent ${e.parent}`;
  }
}
