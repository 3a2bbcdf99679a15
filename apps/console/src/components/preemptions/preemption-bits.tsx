/** Small pieces every preemption view shares: the kind badge, links to the task and the pool, the beneficiary. */
import { PREEMPTION_KIND_LABELS, poolHref } from "@peloton/api/schemas";
import Link from "next/link";
import type { PreemptionRow } from "@/lib/api-types";
import { TONE_DOT } from "@/lib/states";
import { cameBackOf } from "./came-back";

/** The task page of one instance (`/jobs/<job>/tasks/<instance>`). */
export function taskHref(jobId: string, instanceId: number): string {
  return `/jobs/${encodeURIComponent(jobId)}/tasks/${instanceId}`;
}

export function KindBadge({ kind }: { kind: PreemptionRow["kind"] }) {
  const inter = kind === "INTER_POOL";
  return (
    <span
      data-kind={kind}
      title={
        inter
          ? "Inter-pool fairness: a pool over its entitlement gave resources back to pools that wait"
          : "Intra-pool priority: a higher-priority task of the same pool needed the room"
      }
      className={`inline-flex whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium ${
        inter ? "border-info/40 bg-info/10 text-info" : "border-warn/40 bg-warn/10 text-warn"
      }`}
    >
      {PREEMPTION_KIND_LABELS[kind]}
    </span>
  );
}

export function TaskLink({
  task,
}: {
  task: { jobId: string; jobName: string; instanceId: number };
}) {
  return (
    <Link
      href={taskHref(task.jobId, task.instanceId)}
      className="font-mono font-medium text-accent hover:underline"
    >
      {task.jobName}/{task.instanceId}
    </Link>
  );
}

export function PoolLink({ path }: { path: string }) {
  return (
    <Link href={poolHref(path)} className="font-mono text-accent hover:underline">
      {path}
    </Link>
  );
}

/** Inter-pool, nobody waited: the pools named are those whose demand took the entitlement. */
export function tookEntitlement(p: PreemptionRow): boolean {
  return p.kind === "INTER_POOL" && p.numbers.beneficiaries[0]?.entitlementBefore !== undefined;
}

/**
 * In whose favour: the waiting pool, or the pools whose demand took the
 * entitlement (inter-pool), or the waiting gang's task (intra-pool). `all`
 * (the drawer) lists every pool named, not only the closest.
 */
export function Beneficiary({ p, all = false }: { p: PreemptionRow; all?: boolean }) {
  const b = p.beneficiary;
  if (!b)
    return (
      <span className="text-muted" title="No pool waited and none took the entitlement">
        none
      </span>
    );
  if (b.task) {
    return (
      <span className="whitespace-nowrap">
        <TaskLink task={b.task} />
        <span className="block text-xs text-muted">waiting, priority {b.priority}</span>
      </span>
    );
  }
  const took = tookEntitlement(p);
  const named = p.numbers.beneficiaries.map((x) => x.pool);
  const pools = all ? named : [b.poolPath];
  // A table names the closest; the others are counted, so a pool's "given to it" row says it is among them.
  const more = all ? [] : named.filter((path) => path !== b.poolPath);
  return (
    <span data-testid="beneficiary-pools">
      {pools.map((path, i) => (
        <span key={path}>
          {i > 0 && ", "}
          <PoolLink path={path} />
        </span>
      ))}
      {more.length > 0 && <span title={more.join(", ")}> and {more.length} more</span>}
      {took && (
        <span className="block text-xs text-muted">
          {pools.length === 1 ? "its demand" : "their demand"} took the entitlement
        </span>
      )}
    </span>
  );
}

/**
 * The "came back" words with their tone. `stacked` (a table's narrow column)
 * puts what qualifies the word on a second, quieter line; the text read out
 * stays the label.
 */
export function CameBackCell({ p, stacked = false }: { p: PreemptionRow; stacked?: boolean }) {
  const c = cameBackOf(p);
  return (
    <span
      className={`flex gap-1.5 whitespace-nowrap ${stacked ? "items-start" : "items-center"}`}
      title={c.detail}
      data-testid="came-back"
      data-tone={c.tone}
    >
      <span
        aria-hidden
        className={`size-2 shrink-0 rounded-full ${TONE_DOT[c.tone]} ${stacked ? "mt-1.5" : ""}`}
      />
      {stacked && c.after ? (
        <span>
          {c.word}
          <span className="sr-only"> · </span>
          <span className="block text-xs text-muted">{c.after}</span>
        </span>
      ) : (
        c.label
      )}
    </span>
  );
}
