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

export function AuditTarget({ targetType, targetId }: { targetType: string; targetId: string }) {
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
        >
          {targetId}
        </Link>
      ) : (
        <span className="truncate font-mono text-xs">{targetId}</span>
      )}
    </span>
  );
}
