/**
 * A job's instances by state as one stacked bar with the counts beside it:
 * where its instances are, readable at a glance in a dense table.
 */
import {
  STARTING_TASK_STATES,
  STOPPING_TASK_STATES,
  type TaskState,
  UNPLACED_TASK_STATES,
} from "@peloton/api/schemas";
import { formatCount } from "@/lib/format";

type Stats = Partial<Record<string, number>>;

/** Task states grouped the way an operator reads a job's progress. */
export const INSTANCE_GROUPS = [
  { key: "running", label: "running", states: ["RUNNING"], bar: "bg-ok" },
  { key: "succeeded", label: "succeeded", states: ["SUCCEEDED"], bar: "bg-ok/40" },
  { key: "starting", label: "starting", states: STARTING_TASK_STATES, bar: "bg-info" },
  // Admitted, waiting for a host with room.
  { key: "placing", label: "placing", states: UNPLACED_TASK_STATES, bar: "bg-info/45" },
  { key: "pending", label: "pending", states: ["PENDING", "INITIALIZED"], bar: "bg-warn" },
  { key: "stopping", label: "stopping", states: STOPPING_TASK_STATES, bar: "bg-warn/50" },
  { key: "failed", label: "failed", states: ["FAILED"], bar: "bg-bad" },
  // Lost by the cluster (agent gone, a restart): being replaced, not a failure of the task.
  { key: "lost", label: "lost", states: ["LOST"], bar: "bg-warn/70" },
  { key: "killed", label: "killed", states: ["KILLED"], bar: "bg-idle" },
] as const satisfies readonly {
  key: string;
  label: string;
  states: readonly TaskState[];
  bar: string;
}[];

/** States no group counts: a deleted instance, and the placeholder no task is in. */
type Uncounted = "DELETED" | "UNKNOWN";
type Ungrouped = Exclude<TaskState, (typeof INSTANCE_GROUPS)[number]["states"][number] | Uncounted>;
// A new task state fails to compile here until a group (or Uncounted) names it.
const everyStateGrouped: [Ungrouped] extends [never] ? true : Ungrouped = true;
void everyStateGrouped;

export function groupCounts(stats: Stats) {
  return INSTANCE_GROUPS.map((g) => ({
    ...g,
    count: g.states.reduce((n, s) => n + (stats[s] ?? 0), 0),
  }));
}

export function InstanceBar({
  stats,
  total,
  showText = true,
}: {
  stats: Stats;
  total: number;
  /** The counts under the bar (off where the page lists them beside it). */
  showText?: boolean;
}) {
  const groups = groupCounts(stats).filter((g) => g.count > 0);
  const counted = groups.reduce((n, g) => n + g.count, 0);
  const whole = Math.max(total, counted, 1);
  const words = groups.map((g) => `${formatCount(g.count)} ${g.label}`);
  return (
    <div
      className="min-w-36"
      data-testid="instance-bar"
      {...Object.fromEntries(groups.map((g) => [`data-${g.key}`, String(g.count)]))}
      title={words.join(", ") || "no instances"}
    >
      <div className="flex h-1.5 w-full overflow-hidden rounded-full bg-bar-track" aria-hidden>
        {groups.map((g) => (
          <div key={g.key} className={g.bar} style={{ width: `${(g.count / whole) * 100}%` }} />
        ))}
      </div>
      {showText && (
        <p className="mt-0.5 truncate text-xs text-muted">
          <span className="font-medium text-fg tabular-nums">{formatCount(total)}</span>
          {words.length > 0 ? ` · ${words.slice(0, 3).join(" · ")}` : " instances"}
        </p>
      )}
    </div>
  );
}
