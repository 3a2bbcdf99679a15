"use client";
import { usePoolChoices } from "@/components/pools/use-pool-choices";
import { FilterInput } from "@/components/ui/filter-input";
import { ToggleChips } from "@/components/ui/toggle-chips";
import { jobTone } from "@/lib/states";
import {
  formatLabels,
  isFiltered,
  type JobState,
  type JobsQuery,
  type JobType,
  NO_FILTERS,
  parseLabels,
} from "./jobs-query";
import { GROUP_KEYS, type GroupKey } from "./jobs-table";

const STATE_CHIPS: JobState[] = ["PENDING", "RUNNING", "KILLING", "SUCCEEDED", "FAILED", "KILLED"];
const TYPE_CHIPS: JobType[] = ["BATCH", "SERVICE", "STATEFUL", "DAEMON"];
const INPUT = "h-8 rounded-md border border-border bg-surface px-2 placeholder:text-muted";

/** A text filter applied on Enter or when the field loses focus (not on every key). */
function TextFilter({
  label,
  placeholder,
  value,
  onApply,
  width = "w-40",
}: {
  label: string;
  placeholder: string;
  value: string;
  onApply: (v: string) => void;
  width?: string;
}) {
  return (
    <FilterInput
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onCommit={onApply}
      className={`${INPUT} ${width}`}
    />
  );
}

/** Every filter of the jobs page; each change goes to the URL (and back to the first page). */
export function JobsFilters({
  query,
  group,
  onChange,
  onGroup,
}: {
  query: JobsQuery;
  group: GroupKey;
  onChange: (next: Partial<JobsQuery>) => void;
  onGroup: (g: GroupKey) => void;
}) {
  const pools = usePoolChoices();
  return (
    <fieldset className="space-y-2" aria-label="Filters">
      <div className="flex flex-wrap items-center gap-2">
        <TextFilter
          label="Filter by name or id"
          placeholder="Name or job id…"
          value={query.q}
          onApply={(q) => onChange({ q })}
          width="w-48"
        />
        <label className="flex items-center gap-1.5 text-muted">
          Pool
          <select
            aria-label="Pool"
            value={query.pool}
            onChange={(e) => onChange({ pool: e.target.value })}
            className={`${INPUT} max-w-56 text-fg`}
          >
            <option value="">all</option>
            {query.pool && !pools?.some((p) => p.path === query.pool) && (
              <option value={query.pool}>{query.pool}</option>
            )}
            {(pools ?? []).map((p) => (
              <option key={p.path} value={p.path}>
                {p.path}
                {p.jobs > 0 ? ` (${p.jobs})` : ""}
              </option>
            ))}
          </select>
        </label>
        <TextFilter
          label="Owner"
          placeholder="Owner"
          value={query.owner}
          onApply={(owner) => onChange({ owner })}
          width="w-32"
        />
        <TextFilter
          label="Labels"
          placeholder="Labels: key=value,…"
          value={formatLabels(query.labels)}
          onApply={(text) => onChange({ labels: parseLabels(text) })}
          width="w-48"
        />
        <label className="flex items-center gap-1.5 text-muted">
          Group by
          <select
            value={group}
            onChange={(e) => onGroup(e.target.value as GroupKey)}
            className={`${INPUT} text-fg`}
          >
            {GROUP_KEYS.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </label>
        {isFiltered(query) && (
          <button
            type="button"
            onClick={() => onChange(NO_FILTERS)}
            className="text-xs text-accent hover:underline"
          >
            Clear filters
          </button>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <ToggleChips
          legend="State"
          options={STATE_CHIPS}
          value={query.states}
          onChange={(states) => onChange({ states })}
          tone={jobTone}
        />
        <span aria-hidden className="h-5 w-px bg-border" />
        <ToggleChips
          legend="Type"
          options={TYPE_CHIPS}
          value={query.types}
          onChange={(types) => onChange({ types })}
        />
      </div>
    </fieldset>
  );
}
