import type { ReactNode } from "react";
import { hasInputIssues } from "@/lib/api-errors";
import { LiveIndicator } from "./live-indicator";

/** What the header reads off the page's main query: when it last fetched, whether it fails. */
export interface LiveSource {
  dataUpdatedAt: number;
  error: { data?: unknown } | null;
}

/**
 * A list page's title row: the title (a short fact beside it, what the page
 * is for below it), whether the page is live, and the page's own actions.
 */
export function PageHeader({
  title,
  beside,
  description,
  live,
  actions,
}: {
  title: string;
  beside?: ReactNode;
  description?: ReactNode;
  live: LiveSource;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-4">
      <div>
        <div className="flex items-baseline gap-3">
          <h1 className="text-lg font-semibold">{title}</h1>
          {beside}
        </div>
        {description && <div className="text-xs text-muted">{description}</div>}
      </div>
      <div className="flex items-center gap-4">
        {/* A query refused for its filters says so below; the server is fine. */}
        <LiveIndicator
          updatedAt={live.dataUpdatedAt}
          failing={live.error !== null && !hasInputIssues(live.error)}
        />
        {actions}
      </div>
    </div>
  );
}
