"use client";
import type { PoolRow } from "@/lib/api-types";
import { formatResource } from "@/lib/format";

/** When new work in the pool will wait, in words; null when it has room. */
function roomWarning(cpu: PoolRow["resources"]["cpu"]): string | null {
  if (cpu.allocation >= cpu.limit) return "It is at its cpu limit: new tasks wait until some end.";
  if (cpu.demand > 0 && cpu.allocation >= cpu.entitlement)
    return "It is at its cpu entitlement with work waiting: new tasks queue behind it.";
  return null;
}

/** Jobs run in leaf pools only (a pool with children admits nothing). */
export const isLeafPool = (p: PoolRow) => p.children === 0 && p.depth >= 1;

/**
 * The pool a job goes to: leaf pools only, each with how much cpu it is
 * entitled to and already holds, so "will it have room?" is answered before
 * submitting. Empty means "the file's respoolId".
 */
export function PoolPicker({
  id,
  pools,
  value,
  fromFile,
  onChange,
  invalid,
}: {
  id: string;
  pools: readonly PoolRow[];
  value: string;
  /** The file's own `respoolId`, used when nothing is picked. */
  fromFile: string | undefined;
  onChange: (path: string) => void;
  invalid: boolean;
}) {
  const leaves = pools.filter(isLeafPool);
  const chosen = leaves.find((p) => p.path === (value || fromFile));
  const cpu = chosen?.resources.cpu;
  return (
    <div className="space-y-1">
      <select
        id={id}
        value={value}
        aria-invalid={invalid}
        onChange={(e) => onChange(e.target.value)}
        className="h-8 w-full rounded-md border border-border bg-surface px-2 aria-[invalid=true]:border-bad"
      >
        <option value="">{fromFile ? `From the file: ${fromFile}` : "Choose a leaf pool…"}</option>
        {value && !leaves.some((p) => p.path === value) && (
          <option value={value}>{value} (not a leaf pool)</option>
        )}
        {leaves.map((p) => (
          <option key={p.path} value={p.path}>
            {p.path}
            {p.owningTeam ? ` — ${p.owningTeam}` : ""}
          </option>
        ))}
      </select>
      {cpu && (
        <p className="text-xs text-muted" data-testid="pool-room">
          cpu: {formatResource("cpu", cpu.allocation)} in use,{" "}
          {formatResource("cpu", cpu.reservation)} reserved, limit{" "}
          {formatResource("cpu", cpu.limit)}
          {cpu.demand > 0 && ` · ${formatResource("cpu", cpu.demand)} waiting`}
          {roomWarning(cpu) && <span className="block text-warn">{roomWarning(cpu)}</span>}
        </p>
      )}
    </div>
  );
}
