"use client";
import { AUDIT_OUTCOMES } from "@peloton/api/schemas";
import { FilterInput } from "@/components/ui/filter-input";
import type { AuditQuery } from "./audit-query";

const outcomeOf = (value: string): AuditQuery["outcome"] =>
  AUDIT_OUTCOMES.find((o) => o === value) ?? "";

const RANGES = [
  ["", "all time"],
  ["1h", "1 hour"],
  ["24h", "24 hours"],
  ["7d", "7 days"],
  ["30d", "30 days"],
] as const;

const SELECT = "h-8 rounded-md border border-border bg-surface px-2 text-fg";

/** Distinct action families ("pool.") before the actions themselves. */
function actionOptions(actions: readonly string[]): string[] {
  const families = [...new Set(actions.map((a) => `${a.split(".")[0]}.`))].sort();
  return [...families, ...actions];
}

export function AuditFilters({
  query,
  facets,
  onChange,
}: {
  query: AuditQuery;
  facets: { actors: string[]; actions: string[]; targetTypes: string[] } | undefined;
  onChange: (next: Partial<AuditQuery>) => void;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-3" aria-label="Filters">
      <label className="flex items-center gap-2 text-muted">
        Who
        <select
          className={SELECT}
          value={query.actor}
          onChange={(e) => onChange({ actor: e.target.value })}
        >
          <option value="">anyone</option>
          {(facets?.actors ?? []).map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 text-muted">
        Did
        <select
          className={SELECT}
          value={query.action}
          onChange={(e) => onChange({ action: e.target.value })}
        >
          <option value="">anything</option>
          {actionOptions(facets?.actions ?? []).map((a) => (
            <option key={a} value={a}>
              {a.endsWith(".") ? `any ${a.slice(0, -1)} change` : a}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 text-muted">
        Outcome
        <select
          className={SELECT}
          value={query.outcome}
          onChange={(e) => onChange({ outcome: outcomeOf(e.target.value) })}
        >
          <option value="">changes and refusals</option>
          <option value="allowed">changes made</option>
          <option value="refused">refused attempts</option>
        </select>
      </label>
      <label className="flex items-center gap-2 text-muted">
        To
        <select
          className={SELECT}
          value={query.targetType}
          onChange={(e) => onChange({ targetType: e.target.value })}
        >
          <option value="">any kind</option>
          {(facets?.targetTypes ?? []).map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <FilterInput
        aria-label="Target contains"
        placeholder="Pool path, job id, host…"
        value={query.target}
        onCommit={(target) => onChange({ target })}
        className="h-8 w-56 rounded-md border border-border bg-surface px-2"
      />
      <fieldset className="flex items-center gap-1">
        <legend className="sr-only">Time range</legend>
        <span className="mr-1 text-muted">Last</span>
        {RANGES.map(([value, label]) => (
          <button
            key={value}
            type="button"
            aria-pressed={query.since === value}
            onClick={() => onChange({ since: value })}
            className={`rounded-md border px-2 py-1 text-xs ${
              query.since === value
                ? "border-accent bg-surface-2 text-fg"
                : "border-border text-muted hover:text-fg"
            }`}
          >
            {label}
          </button>
        ))}
      </fieldset>
    </fieldset>
  );
}
