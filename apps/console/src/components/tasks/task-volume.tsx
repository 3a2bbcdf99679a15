import Link from "next/link";
import { VolumeStateBadge } from "@/components/volumes/volume-state";
import type { TaskDetail } from "@/lib/api-types";
import { formatMb } from "@/lib/format";

/**
 * A stateful instance's persistent volume: its state and the host it is
 * pinned to (every run goes back there), or, before the first placement,
 * what the config asks for.
 */
export function TaskVolumeFact({ task }: { task: TaskDetail }) {
  const v = task.volume;
  const asked = task.config.volume;
  if (v)
    return (
      <span className="flex min-w-0 flex-col gap-0.5">
        <span className="flex flex-wrap items-center gap-x-2">
          <VolumeStateBadge state={v.state} />
          <span className="whitespace-nowrap text-muted">{formatMb(v.sizeMb)}</span>
        </span>
        <span className="truncate font-mono text-xs" title={v.containerPath}>
          {v.containerPath}
        </span>
        <Link
          href={`/volumes?job=${encodeURIComponent(task.jobId)}`}
          className="truncate text-xs text-muted hover:text-fg hover:underline"
          title={`volume ${v.id} — the job's volumes`}
        >
          on <span className="font-mono">{v.hostname}</span>
        </Link>
      </span>
    );
  if (asked?.containerPath)
    return (
      <span className="flex min-w-0 flex-col gap-0.5">
        <span className="whitespace-nowrap">{formatMb(asked.sizeMB)}</span>
        <span className="truncate font-mono text-xs" title={asked.containerPath}>
          {asked.containerPath}
        </span>
        <span className="text-xs text-muted">pinned to a host when first placed</span>
      </span>
    );
  return <span className="text-muted">none</span>;
}
