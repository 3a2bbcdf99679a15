/**
 * The numbers behind one decision, per kind: what the pool held, what it was
 * entitled to, what it waited for, how far over (or short) it was, what was
 * still to free when this victim was chosen, and what the victim held.
 */
import type { PreemptionRow } from "@/lib/api-types";
import { formatResource, KIND_LABEL, type Kind } from "@/lib/format";
import { PoolLink, tookEntitlement } from "./preemption-bits";

const KINDS: readonly Kind[] = ["cpu", "memory", "disk", "gpu"];
type Amounts = PreemptionRow["numbers"]["allocation"];

const shows = (k: Kind, ...rs: Amounts[]) => rs.some((r) => r[k] > 0);

function Th({ children, title }: { children: string; title: string }) {
  return (
    <th scope="col" className="px-2 py-1.5 text-right font-medium" title={title}>
      {children}
    </th>
  );
}

export function PreemptionNumbers({ p }: { p: PreemptionRow }) {
  const n = p.numbers;
  const inter = p.kind === "INTER_POOL";
  const kinds = KINDS.filter((k) =>
    shows(k, n.allocation, n.entitlement, n.demand, n.excess, n.victim),
  );
  const cell = (k: Kind, v: number) => (
    <td className="px-2 py-1.5 text-right tabular-nums">{formatResource(k, v)}</td>
  );
  return (
    <div className="space-y-4">
      <div className="overflow-x-auto rounded-md border border-border">
        <table className="w-full border-collapse text-sm" data-testid="preemption-numbers">
          <caption className="border-b border-border px-2 py-1.5 text-left text-xs text-muted">
            {p.victim.poolPath}&apos;s{" "}
            {n.resourceClass === "SLACK" ? "revocable (slack)" : "non-revocable"} numbers when it
            was decided
          </caption>
          <thead className="text-xs uppercase tracking-wide text-muted">
            <tr className="border-b border-border">
              <th scope="col" className="px-2 py-1.5 text-left font-medium">
                Kind
              </th>
              <Th title="Held by the pool's admitted and running tasks">Allocation</Th>
              <Th title="What the pool may use now">Entitlement</Th>
              <Th title="Asked for by the pool's waiting tasks">Demand</Th>
              {inter ? (
                <Th title="Allocation − entitlement: what the pool had to give back">Over by</Th>
              ) : (
                <Th title="Allocation + the waiting gang − entitlement: the room the gang needed">
                  Gang needed
                </Th>
              )}
              <Th title="What was still to free when this victim was chosen">Still to free</Th>
              <Th title="What the victim held: its share of it">Victim held</Th>
            </tr>
          </thead>
          <tbody>
            {kinds.map((k) => (
              <tr
                key={k}
                data-kind={k}
                className={`border-b border-border last:border-0 ${
                  n.remaining[k] > 0 ? "bg-warn/5 font-medium" : n.excess[k] > 0 ? "" : "text-muted" // a kind the pool was not short of: context only
                }`}
              >
                <th scope="row" className="px-2 py-1.5 text-left font-medium">
                  {KIND_LABEL[k]}
                </th>
                {cell(k, n.allocation[k])}
                {cell(k, n.entitlement[k])}
                {cell(k, n.demand[k])}
                {cell(k, n.excess[k])}
                {cell(k, n.remaining[k])}
                {cell(k, n.victim[k])}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {inter && n.beneficiaries.length > 0 && (
        <div>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted">
            {tookEntitlement(p)
              ? "Pools whose demand took the entitlement, closest first"
              : "Pools that waited, closest first"}
          </h3>
          <ul className="space-y-1" data-testid="beneficiaries">
            {n.beneficiaries.map((b) => {
              const before = b.entitlementBefore;
              const words = before
                ? KINDS.filter((k) => b.entitlement[k] > before[k] && n.excess[k] > 0).map(
                    (k) =>
                      `${k} entitlement ${formatResource(k, before[k])} → ${formatResource(k, b.entitlement[k])}, holding ${formatResource(k, b.allocation[k])}`,
                  )
                : KINDS.filter((k) => b.demand[k] > 0 && n.excess[k] > 0).map(
                    (k) =>
                      `waited for ${formatResource(k, b.demand[k])}, holding ${formatResource(k, b.allocation[k])} of ${formatResource(k, b.entitlement[k])} entitled`,
                  );
              return (
                <li key={b.pool} className="rounded-md border border-border px-2 py-1.5">
                  <PoolLink path={b.pool} />
                  <span className="text-xs text-muted"> · decided at </span>
                  <span className="font-mono text-xs">{b.level}</span>
                  <p className="text-xs text-muted">{words.join("; ")}</p>
                </li>
              );
            })}
          </ul>
        </div>
      )}

      {n.gang && (
        <p className="text-sm" data-testid="waiting-gang">
          <span className="text-muted">The waiting gang</span> ({n.gang.taskIds.length} task
          {n.gang.taskIds.length === 1 ? "" : "s"}, priority {n.gang.priority}) needed{" "}
          {KINDS.filter((k) => n.gang!.resources[k] > 0)
            .map((k) => formatResource(k, n.gang!.resources[k]))
            .join(", ")}
          .
        </p>
      )}
    </div>
  );
}
