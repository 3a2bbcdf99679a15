"use client";
import {
  PREEMPTION_KIND_LABELS,
  PREEMPTION_KINDS,
  type PreemptionFiltersInput,
  TIME_PRESETS,
} from "@peloton/api/schemas";
import { format } from "date-fns";
import { useId, useState } from "react";
/** The filter bar of /preemptions: pool (and which side of it), kind, time range, job. */
import { usePoolChoices } from "@/components/pools/use-pool-choices";
import { FilterInput } from "@/components/ui/filter-input";
import { isFiltered, NO_FILTERS } from "./preemptions-query";

const PRESET_LABELS: Record<(typeof TIME_PRESETS)[number], string> = {
  "1h": "1 hour",
  "6h": "6 hours",
  "24h": "24 hours",
  "7d": "7 days",
  "30d": "30 days",
};

const SIDES = [
  { value: "either", label: "in or out" },
  { value: "victim", label: "as the victim's pool" },
  { value: "beneficiary", label: "as the beneficiary" },
] as const;

const chip = (on: boolean) =>
  `rounded-md border px-2 py-1 text-xs ${on ? "border-accent bg-surface-2 text-fg" : "border-border text-muted hover:text-fg"}`;

/** A filter set from a link (an instance, a task), with its way out. */
function Chip({ label, clear, onClear }: { label: string; clear: string; onClear: () => void }) {
  return (
    <span className={chip(true)}>
      {label}{" "}
      <button type="button" aria-label={clear} onClick={onClear}>
        ×
      </button>
    </span>
  );
}

/** A datetime-local value (local time) from a stored bound; "" for a duration or nothing. */
function localInput(v: PreemptionFiltersInput["since"]): string {
  if (!v) return "";
  const d = v instanceof Date ? v : /^\d{4}-/.test(v) ? new Date(v) : null;
  return d && !Number.isNaN(d.getTime()) ? format(d, "yyyy-MM-dd'T'HH:mm") : "";
}

export function PreemptionFilterBar({
  filters,
  onChange,
}: {
  filters: PreemptionFiltersInput;
  onChange: (next: Partial<PreemptionFiltersInput>) => void;
}) {
  const pools = usePoolChoices();
  const listId = useId();
  const preset = TIME_PRESETS.find((p) => filters.since === p && !filters.until);
  const custom = Boolean(filters.since || filters.until) && !preset;
  const [showCustom, setShowCustom] = useState(custom);
  const known = pools?.filter((p) => p.path !== "/");
  // A pool typed (or from a link) that is not in the tree: deleted, or a typo.
  const poolMissing =
    !!filters.pool &&
    !!known &&
    filters.pool !== "/" &&
    !known.some((p) => p.path === filters.pool);
  const jobInputId = useId();
  return (
    <fieldset className="space-y-2" aria-label="Filters">
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={`${listId}-pool`} className="flex items-center gap-2 text-muted">
          Pool
          <FilterInput
            id={`${listId}-pool`}
            list={listId}
            placeholder="/team/pool"
            value={filters.pool ?? ""}
            aria-label="Pool"
            aria-describedby={poolMissing ? `${listId}-missing` : undefined}
            aria-invalid={poolMissing}
            onCommit={(pool) => onChange({ pool: pool || undefined })}
            className="h-8 w-48 rounded-md border border-border bg-surface px-2 font-mono text-fg aria-[invalid=true]:border-warn"
          />
          <datalist id={listId}>
            {(known ?? []).map((p) => (
              <option key={p.path} value={p.path} />
            ))}
          </datalist>
        </label>
        {poolMissing && (
          <span
            id={`${listId}-missing`}
            role="status"
            className="text-xs text-warn"
            data-testid="pool-missing"
          >
            No pool {filters.pool} exists now: pick one from the list (its history stays searchable)
          </span>
        )}
        <select
          aria-label="Side of the pool"
          value={filters.side ?? "either"}
          onChange={(e) => onChange({ side: e.target.value as PreemptionFiltersInput["side"] })}
          className="h-8 rounded-md border border-border bg-surface px-2"
        >
          {SIDES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        <label className="flex items-center gap-1.5 text-muted">
          <input
            type="checkbox"
            checked={filters.subtree ?? false}
            onChange={(e) => onChange({ subtree: e.target.checked })}
          />
          and the pools below it
        </label>
        <fieldset className="flex gap-1">
          <legend className="sr-only">Kind</legend>
          <button
            type="button"
            aria-pressed={!filters.kind}
            className={chip(!filters.kind)}
            onClick={() => onChange({ kind: undefined })}
          >
            any kind
          </button>
          {PREEMPTION_KINDS.map((k) => (
            <button
              key={k}
              type="button"
              aria-pressed={filters.kind === k}
              className={chip(filters.kind === k)}
              onClick={() => onChange({ kind: filters.kind === k ? undefined : k })}
            >
              {PREEMPTION_KIND_LABELS[k]}
            </button>
          ))}
        </fieldset>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <fieldset className="flex items-center gap-1">
          <legend className="sr-only">Time range</legend>
          <span className="mr-1 text-muted">Last</span>
          {TIME_PRESETS.map((p) => (
            <button
              key={p}
              type="button"
              aria-pressed={preset === p}
              className={chip(preset === p)}
              onClick={() => {
                setShowCustom(false);
                onChange({ since: p, until: undefined });
              }}
            >
              {PRESET_LABELS[p]}
            </button>
          ))}
          <button
            type="button"
            aria-pressed={!filters.since && !filters.until}
            className={chip(!filters.since && !filters.until)}
            onClick={() => {
              setShowCustom(false);
              onChange({ since: undefined, until: undefined });
            }}
          >
            all time
          </button>
          <button
            type="button"
            aria-pressed={custom || showCustom}
            className={chip(custom || showCustom)}
            onClick={() => setShowCustom(true)}
          >
            custom…
          </button>
        </fieldset>
        {(custom || showCustom) && (
          <span className="flex items-center gap-2 text-muted">
            <label className="flex items-center gap-1">
              from
              <input
                type="datetime-local"
                aria-label="From"
                defaultValue={localInput(filters.since)}
                key={`since-${String(filters.since)}`}
                onChange={(e) =>
                  e.target.value && onChange({ since: new Date(e.target.value).toISOString() })
                }
                className="h-8 rounded-md border border-border bg-surface px-2 text-fg"
              />
            </label>
            <label className="flex items-center gap-1">
              to
              <input
                type="datetime-local"
                aria-label="To"
                defaultValue={localInput(filters.until)}
                key={`until-${String(filters.until)}`}
                onChange={(e) =>
                  onChange({
                    until: e.target.value ? new Date(e.target.value).toISOString() : undefined,
                  })
                }
                className="h-8 rounded-md border border-border bg-surface px-2 text-fg"
              />
            </label>
          </span>
        )}
        <label htmlFor={jobInputId} className="flex items-center gap-2 text-muted">
          Job
          <FilterInput
            id={jobInputId}
            placeholder="job id"
            aria-label="Job id"
            value={filters.job ?? ""}
            onCommit={(job) => onChange({ job: job || undefined, instance: undefined })}
            className="h-8 w-72 rounded-md border border-border bg-surface px-2 font-mono text-xs text-fg"
          />
        </label>
        {filters.instance !== undefined && (
          <Chip
            label={`instance ${filters.instance}`}
            clear="Any instance"
            onClear={() => onChange({ instance: undefined })}
          />
        )}
        {filters.task && (
          <Chip
            label={`task ${filters.task.slice(0, 8)}…`}
            clear="Any task"
            onClear={() => onChange({ task: undefined })}
          />
        )}
        {isFiltered(filters) && (
          <button
            type="button"
            onClick={() => {
              setShowCustom(false);
              onChange(NO_FILTERS);
            }}
            className="text-xs text-accent hover:underline"
          >
            Clear filters
          </button>
        )}
      </div>
    </fieldset>
  );
}
