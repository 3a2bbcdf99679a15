import { formatCount } from "@/lib/format";
import type { BatchState, UpdateView } from "./update-types";

const BATCH_COLORS: Record<BatchState, string> = {
  DONE: "bg-ok border-ok",
  CURRENT: "bg-info/30 border-info animate-pulse motion-reduce:animate-none",
  WAITING: "bg-bar-track border-border",
  FAILED: "bg-bad border-bad",
};

const BATCH_WORDS: Record<BatchState, string> = {
  DONE: "done",
  CURRENT: "in progress",
  WAITING: "waiting",
  FAILED: "failed",
};

/** "0–1", "4", "2, 5–7": a batch's instances as ranges. */
export function instanceRanges(instances: readonly number[]): string {
  const sorted = [...instances].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out.push(i === j ? `${sorted[i]}` : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return out.join(", ");
}

/**
 * An update's progress: one segment per batch (done, in progress, waiting,
 * failed), each named with its instances on hover and for screen readers,
 * and the three counts Peloton keeps (done, remaining, failed).
 */
export function UpdateProgress({
  update,
  compact = false,
}: {
  update: Pick<
    UpdateView,
    "batches" | "numTasksDone" | "numTasksRemaining" | "numTasksFailed" | "instancesTotal"
  >;
  compact?: boolean;
}) {
  const { batches } = update;
  const doneBatches = batches.filter((b) => b.state === "DONE").length;
  return (
    <div className="min-w-0 space-y-1.5" data-testid="update-progress">
      {batches.length > 0 && (
        <ol
          className="flex h-3 w-full gap-0.5"
          aria-label={`${doneBatches} of ${batches.length} batches done`}
        >
          {batches.map((b) => (
            <li
              key={b.index}
              className={`min-w-1 flex-1 rounded-sm border ${BATCH_COLORS[b.state]}`}
              style={{ flexGrow: Math.max(1, b.instances.length) }}
              title={`Batch ${b.index + 1}: instances ${instanceRanges(b.instances)} · ${BATCH_WORDS[b.state]}`}
              data-testid="update-batch"
              data-batch-state={b.state}
            >
              <span className="sr-only">
                Batch {b.index + 1} ({instanceRanges(b.instances)}): {BATCH_WORDS[b.state]}
              </span>
            </li>
          ))}
        </ol>
      )}
      <p className="flex flex-wrap gap-x-3 text-xs tabular-nums" data-testid="update-counts">
        <span>
          <span className="font-semibold" data-testid="update-done">
            {formatCount(update.numTasksDone)}
          </span>{" "}
          <span className="text-muted">done</span>
        </span>
        <span>
          <span className="font-semibold" data-testid="update-remaining">
            {formatCount(update.numTasksRemaining)}
          </span>{" "}
          <span className="text-muted">remaining</span>
        </span>
        <span className={update.numTasksFailed > 0 ? "text-bad" : ""}>
          <span className="font-semibold" data-testid="update-failed">
            {formatCount(update.numTasksFailed)}
          </span>{" "}
          <span className={update.numTasksFailed > 0 ? "" : "text-muted"}>failed</span>
        </span>
        {!compact && batches.length > 0 && (
          <span className="text-muted">
            · batch {Math.min(doneBatches + 1, batches.length)} of {batches.length}
          </span>
        )}
      </p>
    </div>
  );
}
