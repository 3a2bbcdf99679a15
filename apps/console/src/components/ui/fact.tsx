import type { ReactNode } from "react";

/** One labelled figure of a summary (a <dl>'s pair): "Pool /infra/batch". */
export function Fact({
  label,
  children,
  testId,
  className = "",
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  /** Layout of the pair in its list's grid (a span): the pair stays the <dl>'s own child. */
  className?: string;
}) {
  return (
    <div className={`min-w-0 ${className}`}>
      <dt className="text-xs uppercase tracking-wide text-muted">{label}</dt>
      <dd className="mt-0.5 break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
