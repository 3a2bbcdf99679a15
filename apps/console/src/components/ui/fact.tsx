import type { ReactNode } from "react";

/** One labelled figure of a summary (a <dl>'s pair): "Pool /infra/batch". */
export function Fact({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className="min-w-0">
      <dt className="text-xs uppercase tracking-wide text-muted">{label}</dt>
      <dd className="mt-0.5 break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
