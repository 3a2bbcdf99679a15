import { AlertTriangle, Info } from "lucide-react";
import type { ReactNode } from "react";

/** A sentence the page must say before its numbers make sense (no hosts, a conflict, ...). */
export function Notice({
  tone = "info",
  title,
  children,
  action,
  testId,
}: {
  tone?: "info" | "warn" | "bad";
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  const Icon = tone === "info" ? Info : AlertTriangle;
  const colors =
    tone === "bad"
      ? "border-bad/40 bg-bad/5 text-bad"
      : tone === "warn"
        ? "border-warn/40 bg-warn/5 text-warn"
        : "border-info/40 bg-info/5 text-info";
  return (
    <div
      role={tone === "info" ? "status" : "alert"}
      data-testid={testId}
      className={`flex items-start gap-3 rounded-lg border px-4 py-3 ${colors}`}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="min-w-0 flex-1 text-fg">
        <p className="font-medium">{title}</p>
        {children && <div className="mt-0.5 text-muted">{children}</div>}
      </div>
      {action}
    </div>
  );
}
