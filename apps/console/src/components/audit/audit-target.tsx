import { poolHref } from "@peloton/api/schemas";
import Link from "next/link";

/** Where an audited target lives in the console, when it has a page. */
export function targetHref(targetType: string, targetId: string): string | null {
  switch (targetType) {
    case "pool":
      return poolHref(targetId);
    case "job":
      return `/jobs/${encodeURIComponent(targetId)}`;
    case "host":
      return `/hosts/${encodeURIComponent(targetId)}`;
    default:
      return null;
  }
}

/** The target by name when it has one (a job), its id on hover. */
export function AuditTarget({
  targetType,
  targetId,
  targetName = null,
}: {
  targetType: string;
  targetId: string;
  targetName?: string | null;
}) {
  const href = targetHref(targetType, targetId);
  return (
    <span className="flex min-w-0 items-baseline gap-1.5">
      <span className="text-xs text-muted">{targetType}</span>
      {href ? (
        <Link
          href={href}
          // The row opens its details on click; following the link must not also toggle them.
          onClick={(e) => e.stopPropagation()}
          className="truncate font-mono text-xs text-accent hover:underline"
          title={targetName ? targetId : undefined}
        >
          {targetName ?? targetId}
        </Link>
      ) : (
        <span className="truncate font-mono text-xs">{targetId}</span>
      )}
    </span>
  );
}
