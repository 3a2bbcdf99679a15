import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import { changesRepository } from "./changes.ts";
import { decodeKeyset, encodeKeyset } from "./keyset.ts";
import type { Page } from "./pool-history.ts";

export interface AuditEntry {
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  before?: unknown;
  after?: unknown;
  requestId?: string;
  /** How the actor came: "session", "token:<name>", "system" (docs/identity.md). */
  via?: string;
  /** A refused attempt: the policy's sentence (outcome "refused"); absent for an accepted change. */
  refusal?: string;
}

export interface AuditRecord {
  id: string;
  at: Date;
  actor: string;
  /** "pool.update", "job.create", "host.drain", ... */
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  /** How the actor came: "session", "token:<name>", "system"; "" for rows from before identity. */
  via: string;
  /** "allowed" (the change was made) or "refused" (the policy turned it down; nothing changed). */
  outcome: AuditOutcome;
  /** The policy's sentence for a refused attempt; null otherwise. */
  refusal: string | null;
}

export const AUDIT_OUTCOMES = ["allowed", "refused"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export interface AuditQuery {
  actor?: string | undefined;
  /** An exact action ("job.stop") or a family ("job."). */
  action?: string | undefined;
  targetType?: string | undefined;
  /** Part of the target's id (a pool path, a job id, a hostname), case-insensitive. */
  target?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  outcome?: AuditOutcome | undefined;
  limit: number;
  cursor?: string | null | undefined;
}

/** What the filters can pick from: the actors, actions and target types seen so far. */
export interface AuditFacets {
  actors: string[];
  actions: string[];
  targetTypes: string[];
}

interface Row {
  id: string;
  at: Date;
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
  via: string;
  outcome: string;
  refusal: string | null;
}

const toRecord = (r: Row): AuditRecord => ({
  id: r.id,
  at: r.at,
  actor: r.actor,
  action: r.action,
  targetType: r.target_type,
  targetId: r.target_id,
  before: r.before,
  after: r.after,
  via: r.via,
  outcome: r.outcome === "refused" ? "refused" : "allowed",
  refusal: r.refusal,
});

function whereOf(q: AuditQuery): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`true`];
  if (q.actor) parts.push(Prisma.sql`actor = ${q.actor}`);
  if (q.action)
    parts.push(
      q.action.endsWith(".")
        ? Prisma.sql`starts_with(action, ${q.action})`
        : Prisma.sql`action = ${q.action}`,
    );
  if (q.targetType) parts.push(Prisma.sql`target_type = ${q.targetType}`);
  if (q.target) parts.push(Prisma.sql`target_id ILIKE ${`%${escapeLike(q.target)}%`}`);
  if (q.since) parts.push(Prisma.sql`at >= ${q.since}`);
  if (q.until) parts.push(Prisma.sql`at <= ${q.until}`);
  if (q.outcome) parts.push(Prisma.sql`outcome = ${q.outcome}`);
  const after = decodeKeyset(q.cursor);
  if (after && typeof after.v === "string")
    parts.push(
      Prisma.sql`(at, id) < (${new Date(after.v)}::timestamptz, ${String(after.k)}::bigint)`,
    );
  return Prisma.join(parts, " AND ");
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The audit log: one row per accepted mutation, written in the mutation's
 * transaction (so a change and its audit row commit together) and announced
 * with it; read newest first by keyset on (at, id).
 */
export function auditRepository(db: DbOrTx) {
  return {
    async record(e: AuditEntry): Promise<void> {
      const row = await db.auditLog.create({
        data: {
          actor: e.actor,
          action: e.action,
          targetType: e.targetType,
          targetId: e.targetId,
          ...(e.before === undefined ? {} : { before: e.before as Prisma.InputJsonValue }),
          ...(e.after === undefined ? {} : { after: e.after as Prisma.InputJsonValue }),
          ...(e.requestId ? { requestId: e.requestId } : {}),
          ...(e.via ? { via: e.via } : {}),
          ...(e.refusal === undefined ? {} : { outcome: "refused", refusal: e.refusal }),
        },
        select: { id: true },
      });
      await changesRepository(db).announce({ topic: "audit", keys: [row.id.toString()] });
    },

    async list(q: AuditQuery): Promise<Page<AuditRecord>> {
      const rows = await db.$queryRaw<Row[]>`
        SELECT id::text, at, actor, action, target_type, target_id, before, after, via, outcome, refusal
        FROM audit_log WHERE ${whereOf(q)}
        ORDER BY at DESC, id DESC LIMIT ${q.limit + 1}`;
      const items = rows.slice(0, q.limit).map(toRecord);
      const last = items.at(-1);
      return {
        items,
        nextCursor:
          rows.length > q.limit && last
            ? encodeKeyset({ v: last.at.toISOString(), k: last.id })
            : null,
      };
    },

    async facets(): Promise<AuditFacets> {
      // The log holds people's mutations (thousands of rows, not millions): a scan is fine.
      const [actors, actions, types] = await Promise.all([
        db.auditLog.findMany({ distinct: ["actor"], select: { actor: true }, take: 200 }),
        db.auditLog.findMany({ distinct: ["action"], select: { action: true }, take: 200 }),
        db.auditLog.findMany({ distinct: ["targetType"], select: { targetType: true }, take: 50 }),
      ]);
      return {
        actors: actors.map((a) => a.actor).sort(),
        actions: actions.map((a) => a.action).sort(),
        targetTypes: types.map((t) => t.targetType).sort(),
      };
    },
  };
}
