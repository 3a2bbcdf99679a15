import Link from "next/link";
import { RelativeTime } from "@/components/ui/relative-time";
import type { TaskEvent } from "@/lib/api-types";
import { TONE_DOT, taskTone } from "@/lib/states";

type Transition = TaskEvent & { instanceId?: number };

function Dot({ state }: { state: string }) {
  return (
    <span aria-hidden className={`inline-block size-2 rounded-full ${TONE_DOT[taskTone(state)]}`} />
  );
}

/**
 * State transitions as the scheduler recorded them: when (relative, the
 * absolute time on hover), from → to, the reason code and its sentence,
 * which part of the system acted, on which host. A job's timeline also names
 * the instance and run.
 */
export function TransitionList({
  events,
  jobId,
  testId = "transitions",
}: {
  events: readonly Transition[];
  /** Set for a job's timeline: each row links its instance. */
  jobId?: string;
  testId?: string;
}) {
  return (
    <ol className="divide-y divide-border" data-testid={testId}>
      {events.map((e) => (
        <li
          key={e.id}
          className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 py-1.5 text-xs sm:grid-cols-[7rem_17rem_minmax(0,1fr)]"
          data-testid="transition"
          data-state={e.state}
        >
          <span className="whitespace-nowrap text-muted">
            <RelativeTime at={e.at} />
          </span>
          <span className="flex flex-wrap items-center gap-1.5 whitespace-nowrap">
            {jobId !== undefined && e.instanceId !== undefined && (
              <Link
                href={`/jobs/${jobId}/tasks/${e.instanceId}`}
                className="font-mono font-medium hover:underline"
              >
                #{e.instanceId}
              </Link>
            )}
            {e.previousState && (
              <>
                <Dot state={e.previousState} />
                <span className="text-muted">{e.previousState}</span>
                <span aria-hidden className="text-muted">
                  →
                </span>
                <span className="sr-only">to</span>
              </>
            )}
            <Dot state={e.state} />
            <span className="font-medium">{e.state}</span>
          </span>
          <span className="col-span-2 min-w-0 sm:col-span-1">
            {e.reason && !e.message?.includes(e.reason) && (
              <span className="mr-1.5 font-mono text-muted">{e.reason}</span>
            )}
            {e.message}
            <span className="ml-1.5 text-muted">
              · {e.source.toLowerCase().replaceAll("_", " ")}
              {jobId !== undefined ? ` · run ${e.runId}` : ""}
              {e.hostname ? ` · ${e.hostname}` : ""}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}
