import { Hourglass } from "lucide-react";
import Link from "next/link";
import type { JobDetail } from "@/lib/api-types";
import { formatCount } from "@/lib/format";
import { poolHref } from "@/lib/pools";
import { QUEUE_PLACE, waitingWhy } from "@/lib/waiting";

type Waiting = JobDetail["waiting"][number];

/** The groups in queue order (the first in line, whose reason holds the others, first). */
function inLineOrder(waiting: readonly Waiting[]) {
  const place = (m: RegExpExecArray | null) => (m ? Number.parseInt(m[1]!, 10) : Infinity);
  return waiting
    .map((w) => ({ w, m: w.message ? QUEUE_PLACE.exec(w.message) : null }))
    .sort((a, b) => place(a.m) - place(b.m));
}

/** "3 instances are waiting", "1 instance will never fit", or both joined. */
function headline(waiting: readonly Waiting[]): string {
  const count = (resolvable: boolean) =>
    waiting.filter((w) => w.resolvable === resolvable).reduce((n, w) => n + w.tasks, 0);
  const waits = count(true);
  const never = count(false);
  const parts = [
    ...(waits > 0
      ? [`${formatCount(waits)} instance${waits === 1 ? " is" : "s are"} waiting`]
      : []),
    ...(never > 0
      ? [`${formatCount(never)} instance${never === 1 ? "" : "s"} will never fit`]
      : []),
  ];
  return parts.join("; ");
}

/**
 * "Why is this pending?": the stored reason of the job's waiting instances,
 * grouped by reason, with the place of the first of them in its pool's
 * admission queue — the answer the scheduler acted on, not a guess. A reason
 * no change of allocation resolves (`resolvable: false`: only the hosts or
 * the pools changing can) is not called a wait.
 */
export function WhyPending({ job }: { job: JobDetail }) {
  if (job.waiting.length === 0) return null;
  return (
    <section
      aria-label="Why instances are waiting"
      data-testid="why-pending"
      className="rounded-lg border border-warn/40 bg-warn/5 px-4 py-3"
    >
      <h2 className="flex items-center gap-2 font-medium">
        <Hourglass className="size-4 text-warn" aria-hidden />
        {headline(job.waiting)}
      </h2>
      <ul className="mt-2 space-y-2">
        {inLineOrder(job.waiting).map(({ w, m }) => {
          const [, place, pool = "", queue] = m ?? [];
          return (
            <li
              key={w.reason ?? "none"}
              data-testid="waiting-reason"
              data-reason={w.reason ?? ""}
              data-resolvable={w.resolvable}
            >
              <p>
                <span className="font-semibold tabular-nums">{formatCount(w.tasks)}</span>
                <span className="text-muted"> instance{w.tasks === 1 ? "" : "s"}: </span>
                {waitingWhy(w.message)}
              </p>
              <p className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-muted">
                {!w.resolvable && (
                  <span className="font-medium text-bad">
                    will never fit until the hosts or the pool change
                  </span>
                )}
                {m && (
                  <span data-testid="queue-position">
                    first of them <span className="font-medium text-fg">{place}</span> in{" "}
                    <Link href={poolHref(pool)} className="font-mono hover:underline">
                      {pool}
                    </Link>
                    &apos;s {queue} queue
                  </span>
                )}
                {w.reason && <span className="font-mono">{w.reason}</span>}
              </p>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
