import type { ReactNode } from "react";

/** The title row of the identity pages (no live data, so no live indicator). */
export function PageTitle({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-4">
      <div>
        <h1 className="text-lg font-semibold">{title}</h1>
        {description && <div className="text-xs text-muted">{description}</div>}
      </div>
      {actions && <div className="flex items-center gap-3">{actions}</div>}
    </div>
  );
}

/** Table cell and header styles shared by the identity pages' tables. */
export const TH = "py-1.5 pr-3 text-left text-xs font-medium text-muted first:pl-3";
export const TD = "py-2 pr-3 align-top first:pl-3";
