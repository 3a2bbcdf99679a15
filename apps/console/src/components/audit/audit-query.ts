/**
 * The audit page's state lives in the URL, so a view can be shared as a
 * link: `/audit?actor=alice&action=pool.&target=%2Fweb&since=24h&outcome=refused`.
 */
import { AUDIT_OUTCOMES, type AuditListInput, type AuditOutcome } from "@peloton/api/schemas";

export const PAGE_SIZE = 50;

export interface AuditQuery {
  actor: string;
  /** An exact action, or a family ending in a dot ("pool."). */
  action: string;
  targetType: string;
  target: string;
  /** A duration back from now ("24h") or an ISO time; "" for all time. */
  since: string;
  /** Changes made, or attempts the policy refused; "" for both. */
  outcome: AuditOutcome | "";
  cursor: string | null;
  /** The entry whose before/after is open. */
  open: string | null;
}

type Params = { get(name: string): string | null };

export function readAuditQuery(params: Params): AuditQuery {
  return {
    actor: params.get("actor") ?? "",
    action: params.get("action") ?? "",
    targetType: params.get("type") ?? "",
    target: params.get("target") ?? "",
    since: params.get("since") ?? "",
    outcome: AUDIT_OUTCOMES.find((o) => o === params.get("outcome")) ?? "",
    cursor: params.get("cursor"),
    open: params.get("open"),
  };
}

export function writeAuditQuery(q: AuditQuery): string {
  const p = new URLSearchParams();
  if (q.actor) p.set("actor", q.actor);
  if (q.action) p.set("action", q.action);
  if (q.targetType) p.set("type", q.targetType);
  if (q.target) p.set("target", q.target);
  if (q.since) p.set("since", q.since);
  if (q.outcome) p.set("outcome", q.outcome);
  if (q.cursor) p.set("cursor", q.cursor);
  if (q.open) p.set("open", q.open);
  const text = p.toString();
  return text ? `?${text}` : "";
}

export function listInput(q: AuditQuery): AuditListInput {
  return {
    ...(q.actor ? { actor: q.actor } : {}),
    ...(q.action ? { action: q.action } : {}),
    ...(q.targetType ? { targetType: q.targetType } : {}),
    ...(q.target ? { target: q.target } : {}),
    ...(q.since ? { since: q.since } : {}),
    ...(q.outcome ? { outcome: q.outcome } : {}),
    limit: PAGE_SIZE,
    cursor: q.cursor,
  };
}

export function isFiltered(q: AuditQuery): boolean {
  return Boolean(q.actor || q.action || q.targetType || q.target || q.since);
}

/** Every filter cleared: the whole log. */
export const NO_FILTERS = {
  actor: "",
  action: "",
  targetType: "",
  target: "",
  since: "",
} satisfies Partial<AuditQuery>;
