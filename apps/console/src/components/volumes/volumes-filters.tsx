"use client";
/** The filter bar of /volumes: text, state, host and job (hosts and jobs that hold volumes). */
import { FilterInput } from "@/components/ui/filter-input";
import { ToggleChips } from "@/components/ui/toggle-chips";
import type { VolumeFacets } from "@/lib/api-types";
import { volumeTone } from "@/lib/states";
import { isFiltered, NO_FILTERS, VOLUME_STATES, type VolumesQuery } from "./volumes-query";

const SELECT = "h-8 max-w-64 rounded-md border border-border bg-surface px-2 text-fg";

export function VolumesFilters({
  query,
  facets,
  onChange,
}: {
  query: VolumesQuery;
  facets: VolumeFacets | undefined;
  onChange: (next: Partial<VolumesQuery>) => void;
}) {
  const hosts = facets?.hosts ?? [];
  const jobs = facets?.jobs ?? [];
  // A host or job from a link may not be among the offered ones (none of its volumes yet).
  const hostMissing = query.host !== "" && !hosts.some((h) => h.hostname === query.host);
  const jobMissing = query.job !== "" && !jobs.some((j) => j.id === query.job);
  return (
    <fieldset className="flex flex-wrap items-center gap-3" aria-label="Filters">
      <FilterInput
        aria-label="Filter by volume id or job name"
        placeholder="Volume id or job name…"
        value={query.q}
        onCommit={(q) => onChange({ q })}
        className="h-8 w-56 rounded-md border border-border bg-surface px-2"
      />
      <ToggleChips
        legend="State"
        options={VOLUME_STATES}
        value={query.states}
        onChange={(states) => onChange({ states })}
        tone={volumeTone}
      />
      <label className="flex items-center gap-2 text-muted">
        Host
        <select
          className={`${SELECT} font-mono`}
          value={query.host}
          onChange={(e) => onChange({ host: e.target.value })}
        >
          <option value="">any host</option>
          {hostMissing && <option value={query.host}>{query.host}</option>}
          {hosts.map((h) => (
            <option key={h.hostname} value={h.hostname}>
              {h.hostname} ({h.volumes})
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 text-muted">
        Job
        <select
          className={SELECT}
          value={query.job}
          onChange={(e) => onChange({ job: e.target.value })}
        >
          <option value="">any job</option>
          {jobMissing && <option value={query.job}>job {query.job.slice(0, 8)}…</option>}
          {jobs.map((j) => (
            <option key={j.id} value={j.id}>
              {j.name} ({j.volumes})
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
    </fieldset>
  );
}
