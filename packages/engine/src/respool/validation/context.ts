import type { ResourceKind } from "../../resources/kinds.ts";
import type { Resources } from "../../resources/resources.ts";
import type { PoolConfigInput, PoolResources, ResourceConfig } from "../config.ts";
import type { PoolNode, PoolTree } from "../tree.ts";

/** Everything a rule needs to judge one create, update or move. */
export interface PoolChange {
  readonly operation: "create" | "update" | "move";
  readonly tree: PoolTree;
  /** The root's reservation and limit (peloton-semantics.md §1 and §2, rule 5). */
  readonly capacity: Resources;
  /** The pool's path: the new one on create, the stored one on update and move. */
  readonly path: string;
  readonly name: string;
  /** The parent after the change. */
  readonly parentPath: string;
  readonly parent: PoolNode | undefined;
  /** The stored pool on update and move. */
  readonly existing: PoolNode | null;
  /** As submitted (create and update); null on a move, which keeps the stored settings. */
  readonly config: PoolConfigInput | null;
  /** Every kind's settings after defaults. */
  readonly resources: PoolResources;
}

/** The root's reservation and limit are the cluster capacity (peloton-semantics.md §1). */
export function parentSetting(
  change: PoolChange,
  parent: PoolNode,
  kind: ResourceKind,
): ResourceConfig {
  const record = parent.record;
  if (record) return record.resources[kind];
  const cap = change.capacity[kind];
  return { reservation: cap, limit: cap, share: 1, type: "ELASTIC" };
}

export function resourceField(kind: ResourceKind, name: keyof ResourceConfig): string {
  return `resources.${kind}.${name}`;
}
