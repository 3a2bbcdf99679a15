"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { UpdateActions } from "./update-actions";
import { isActiveUpdate, isGoingBack } from "./update-blocks";
import { UpdateProgress } from "./update-progress";
import { UpdateStateBadge } from "./update-state-badge";
import type { UpdateView } from "./update-types";

function headline(u: UpdateView): string {
  if (u.kind === "RESTART") return `Rolling restart of version ${u.toVersion}`;
  if (u.kind === "START") return "Rolling start";
  if (u.kind === "STOP") return "Rolling stop";
  return isGoingBack(u)
    ? `Rolling back from version ${u.toVersion} to ${u.fromVersion}`
    : `Updating from version ${u.fromVersion} to ${u.toVersion}`;
}

/**
 * The job's update in progress, above its tabs: what it does, its state and
 * progress per batch (live), and its pause / resume / abort / rollback.
 * Nothing when no update is active.
 */
export function UpdateBanner({
  jobId,
  denied,
  onDetails,
}: {
  jobId: string;
  /** Opens the Updates tab. */
  onDetails: () => void;
  /** Why the signed-in person may not act on this job's updates. */
  denied: string | undefined;
}) {
  const trpc = useTRPC();
  const latest = useQuery(trpc.updates.list.queryOptions({ jobId, limit: 1 }));
  const u = latest.data?.items[0];
  if (!u || !isActiveUpdate(u)) return null;
  const held = u.state === "PAUSED";
  return (
    <section
      aria-label="Update in progress"
      aria-live="polite"
      data-testid="update-banner"
      data-state={u.state}
      className={`rounded-lg border px-4 py-3 ${held ? "border-warn/50 bg-warn/5" : isGoingBack(u) ? "border-warn/50 bg-warn/5" : "border-info/50 bg-info/5"}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-0.5">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            {headline(u)}
            <UpdateStateBadge update={u} testId="banner-state" />
          </p>
          <p className="text-xs text-muted">
            {u.actor ? `started by ${u.actor} · ` : ""}
            batches of {u.options.batchSize || `${u.options.batchPercentage}%`}
            {u.instancesCurrent.length > 0 &&
              ` · now: instance${u.instancesCurrent.length === 1 ? "" : "s"} ${u.instancesCurrent.slice(0, 8).join(", ")}${u.instancesCurrent.length > 8 ? "…" : ""}`}
            {" · "}
            <button type="button" onClick={onDetails} className="text-accent hover:underline">
              details and history
            </button>
          </p>
          {u.message && <p className="text-xs">{u.message}</p>}
        </div>
        <UpdateActions update={u} denied={denied} />
      </div>
      <div className="mt-2 max-w-3xl">
        <UpdateProgress update={u} />
      </div>
    </section>
  );
}
