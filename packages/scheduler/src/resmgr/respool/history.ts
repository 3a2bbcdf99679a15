/**
 * Who changed a pool, when, and what: each stored change with the fields that
 * differ between its before and after, named as the configuration names them
 * (`resources.cpu.reservation`), so the console and the edit form agree.
 */
import { RESOURCE_KINDS } from "@peloton/engine";
import type { PoolChangeRecord, PoolSnapshotJson } from "@peloton/storage";

export type FieldValue = string | number | readonly string[] | null;

export interface FieldChange {
  readonly field: string;
  /** null on a created pool's fields. */
  readonly before: FieldValue;
  /** null on a deleted pool's fields. */
  readonly after: FieldValue;
}

export interface PoolHistoryEntry {
  readonly id: string;
  readonly action: PoolChangeRecord["action"];
  readonly actor: string;
  readonly at: Date;
  /** The pool's version after the change (the deleted version on a delete). */
  readonly version: number;
  readonly changes: FieldChange[];
}

const RESOURCE_FIELDS = ["reservation", "limit", "share", "type"] as const;

/** The pool's settings as flat fields, in the order the console lists them. */
function fieldsOf(p: PoolSnapshotJson): [string, FieldValue][] {
  return [
    ["owningTeam", p.owningTeam],
    ["ldapGroups", p.ldapGroups],
    ["description", p.description],
    ["policy", p.policy],
    ["controllerLimit.maxPercent", p.controllerLimitMaxPercent],
    ["slackLimit.maxPercent", p.slackLimitMaxPercent],
    ...RESOURCE_KINDS.flatMap((kind) =>
      RESOURCE_FIELDS.map((f): [string, FieldValue] => [
        `resources.${kind}.${f}`,
        p.resources?.[kind]?.[f] ?? null,
      ]),
    ),
  ];
}

const same = (a: FieldValue, b: FieldValue) => JSON.stringify(a) === JSON.stringify(b);

/** Fields that differ; against null (create, delete) every field of the other side. */
export function diffPools(
  before: PoolSnapshotJson | null,
  after: PoolSnapshotJson | null,
): FieldChange[] {
  const b = new Map(before ? fieldsOf(before) : []);
  const a = new Map(after ? fieldsOf(after) : []);
  const changes: FieldChange[] = [];
  for (const field of new Set([...b.keys(), ...a.keys()])) {
    const was = b.get(field) ?? null;
    const is = a.get(field) ?? null;
    if (!same(was, is)) changes.push({ field, before: was, after: is });
  }
  return changes;
}

function asSnapshot(json: unknown): PoolSnapshotJson | null {
  return json !== null && typeof json === "object" ? (json as PoolSnapshotJson) : null;
}

export function historyEntry(change: PoolChangeRecord): PoolHistoryEntry {
  return {
    id: change.id,
    action: change.action,
    actor: change.actor,
    at: change.at,
    version: change.version,
    changes: diffPools(asSnapshot(change.before), asSnapshot(change.after)),
  };
}
