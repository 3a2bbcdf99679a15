"use client";
import { auditChanges, describeAuditChange } from "@peloton/api/schemas";
import { ChevronDown, ChevronRight } from "lucide-react";
import { Fragment } from "react";
import { DiffView } from "@/components/ui/diff-view";
import { RelativeTime } from "@/components/ui/relative-time";
import type { AuditEntry } from "@/lib/api-types";
import { AuditTarget } from "./audit-target";

export function AuditTable({
  rows,
  openId,
  onToggle,
}: {
  rows: readonly AuditEntry[];
  openId: string | null;
  onToggle: (id: string | null) => void;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-surface">
      <table className="w-full text-left" data-testid="audit-table">
        <thead className="border-b border-border text-xs uppercase tracking-wide text-muted">
          <tr>
            <th className="w-8 px-3 py-2" aria-label="Details" />
            <th className="px-3 py-2 font-semibold">When</th>
            <th className="px-3 py-2 font-semibold">Who</th>
            <th className="px-3 py-2 font-semibold">Action</th>
            <th className="px-3 py-2 font-semibold">Target</th>
            <th className="px-3 py-2 font-semibold">Change</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => {
            const open = e.id === openId;
            return (
              <Fragment key={e.id}>
                {/* A click anywhere on the row opens it; keyboards and screen readers
                    use the first cell's button (a table row cannot carry
                    aria-expanded outside a treegrid). */}
                <tr
                  data-audit={e.id}
                  onClick={(ev) => {
                    // Links and the button inside the row do their own thing.
                    if ((ev.target as HTMLElement).closest("a,button")) return;
                    onToggle(open ? null : e.id);
                  }}
                  data-outcome={e.outcome}
                  className={`cursor-pointer border-b border-border align-top last:border-0 hover:bg-surface-2/60 ${open ? "bg-surface-2" : ""} ${e.outcome === "refused" ? "border-l-2 border-l-bad" : ""}`}
                >
                  <td className="px-3 py-2 text-muted">
                    <button
                      type="button"
                      aria-expanded={open}
                      aria-label={`Details: ${e.action} ${e.targetName ?? e.targetId}`}
                      onClick={() => onToggle(open ? null : e.id)}
                      className="rounded hover:text-fg"
                    >
                      {open ? (
                        <ChevronDown className="size-4" aria-hidden />
                      ) : (
                        <ChevronRight className="size-4" aria-hidden />
                      )}
                    </button>
                  </td>
                  <td className="whitespace-nowrap px-3 py-2 text-muted">
                    <RelativeTime at={e.at} />
                  </td>
                  <td className="px-3 py-2">
                    {e.actor}
                    {e.via && <span className="block text-xs text-muted">{e.via}</span>}
                  </td>
                  <td className="px-3 py-2">
                    <span className="rounded border border-border bg-surface-2 px-1.5 py-0.5 font-mono text-xs">
                      {e.action}
                    </span>
                  </td>
                  <td className="max-w-72 px-3 py-2">
                    <AuditTarget
                      targetType={e.targetType}
                      targetId={e.targetId}
                      targetName={e.targetName}
                    />
                  </td>
                  <td className="px-3 py-2 text-muted" data-testid="audit-summary">
                    {e.outcome === "refused" ? (
                      <RefusedBadge reason={e.refusal ?? ""} />
                    ) : (
                      describeAuditChange(e.before, e.after)
                    )}
                  </td>
                </tr>
                {open && (
                  <tr className="border-b border-border bg-surface-2/40">
                    <td />
                    <td colSpan={5} className="px-3 py-3" data-testid="audit-detail">
                      <DiffView changes={auditChanges(e.before, e.after)} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A refused attempt: nothing changed; the policy's sentence says why. */
function RefusedBadge({ reason }: { reason: string }) {
  return (
    <span className="text-bad" data-testid="audit-refused">
      <span className="mr-2 rounded border border-bad/40 bg-bad/10 px-1.5 py-0.5 text-xs font-semibold uppercase">
        refused
      </span>
      {reason}
    </span>
  );
}
