/**
 * A jobs-table row's answer to "why is it pending?": the reason its first
 * waiting instance waits, in the scheduler's words. The job page groups all
 * of its waiting instances by reason (why-pending.tsx).
 */
import { Hourglass } from "lucide-react";
import type { JobRow } from "@/lib/api-types";
import { formatCount } from "@/lib/format";
import { waitingWhy } from "@/lib/waiting";

export function JobWaiting({ job }: { job: JobRow }) {
  const waiting = job.firstWaiting;
  if (waiting === null) return null;
  const count = job.taskStats.PENDING ?? 0;
  const why = waitingWhy(waiting.message);
  // An unresolvable reason says so in its own words ("can never fit in pool …").
  const lead = `${formatCount(count)} waiting`;
  return (
    <p
      className={`flex items-center gap-1 truncate text-xs ${waiting.resolvable ? "text-warn" : "text-bad"}`}
      data-testid="job-waiting"
      data-reason={waiting.reason ?? ""}
      title={`${lead}: ${why}${waiting.reason ? ` (${waiting.reason})` : ""}`}
    >
      <Hourglass className="size-3 shrink-0" aria-hidden />
      <span className="truncate">
        <span className="font-medium">{lead}:</span> {why}
      </span>
    </p>
  );
}
