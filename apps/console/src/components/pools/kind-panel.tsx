import { ResourceBar } from "@/components/ui/resource-bar";
import type { PoolDetail } from "@/lib/api-types";
import { formatResource, isUnusedKind, KIND_LABEL, type Kind } from "@/lib/format";
import { ExplanationSteps } from "./explanation-steps";

/**
 * One kind of one pool: what it may use now and why, what it holds and waits
 * for, and its settings. The "why" is the calculator's own steps, in words.
 */
export function KindPanel({ kind, pool }: { kind: Kind; pool: PoolDetail }) {
  const n = pool.resources[kind];
  const r = (v: number) => formatResource(kind, v);
  const slack = n.slackEntitlement > 0;
  if (isUnusedKind(n))
    return (
      <section
        aria-label={KIND_LABEL[kind]}
        data-kind={kind}
        data-testid={`kind-panel-${kind}`}
        className="rounded-lg border border-dashed border-border p-4"
      >
        <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">
          {KIND_LABEL[kind]}
        </h2>
        <p className="mt-2 text-muted">
          Not used: its limit is 0, so it is never entitled to any {KIND_LABEL[kind].toLowerCase()}.
          Raise the limit in Edit to let it borrow.
        </p>
      </section>
    );
  const figure = (label: string, value: string, testId: string, tone = "") => (
    <div>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className={`text-base font-semibold tabular-nums ${tone}`} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
  return (
    <section
      aria-label={KIND_LABEL[kind]}
      data-kind={kind}
      data-testid={`kind-panel-${kind}`}
      className="space-y-3 rounded-lg border border-border bg-surface p-4"
    >
      <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">
        {KIND_LABEL[kind]}
      </h2>
      <dl className="grid grid-cols-3 gap-3">
        {figure("Entitled to", r(n.entitlement), "entitlement")}
        {figure(
          "Allocated",
          r(n.allocation),
          "allocation",
          n.allocation > n.entitlement + 1e-9 ? "text-warn" : "",
        )}
        {figure("Waiting (demand)", r(n.demand), "demand", n.demand > 0 ? "text-warn" : "")}
      </dl>
      <ResourceBar kind={kind} numbers={n} />
      <dl className="grid grid-cols-3 gap-3 text-sm">
        <div>
          <dt className="text-xs text-muted">Reservation</dt>
          <dd className="tabular-nums" data-testid="reservation">
            {r(n.reservation)} <span className="text-xs text-muted">{n.type}</span>
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted">Limit</dt>
          <dd className="tabular-nums">{r(n.limit)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">Share</dt>
          <dd className="tabular-nums">{n.share}</dd>
        </div>
      </dl>
      {slack && (
        <p className="text-xs text-muted">
          {r(n.nonSlackEntitlement)} for regular tasks, {r(n.slackEntitlement)} for revocable ones.
        </p>
      )}
      <div>
        <h3 className="text-xs font-medium text-muted">Why {r(n.entitlement)}</h3>
        <ExplanationSteps kind={kind} steps={pool.explanation[kind].steps} />
      </div>
    </section>
  );
}
