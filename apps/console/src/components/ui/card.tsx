import type { ReactNode } from "react";

export function Card({
  title,
  action,
  children,
  className = "",
  testId,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <section
      aria-label={title}
      data-testid={testId}
      className={`rounded-lg border border-border bg-surface ${className}`}
    >
      <header className="flex items-center justify-between border-b border-border px-4 py-2.5">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-muted">{title}</h2>
        {action}
      </header>
      <div className="p-4">{children}</div>
    </section>
  );
}

/** What to do next when there is nothing to show. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-md border border-dashed border-border px-4 py-6 text-center">
      <p className="font-medium">{title}</p>
      {children && <p className="mt-1 text-muted">{children}</p>}
    </div>
  );
}

export function Skeleton({ className = "" }: { className?: string }) {
  return <div className={`animate-pulse rounded bg-surface-2 ${className}`} />;
}

/** A table's first load: a few row-high placeholders (`tall` for two-line rows). */
export function RowsSkeleton({ tall = false }: { tall?: boolean }) {
  return (
    <div className="space-y-2" role="status" aria-busy="true" aria-label="Loading">
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} className={`${tall ? "h-12" : "h-10"} w-full`} />
      ))}
    </div>
  );
}
