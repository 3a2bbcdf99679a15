import { formatAuditValue } from "@peloton/api/schemas";
import { ArrowRight } from "lucide-react";

export interface FieldDiff {
  field: string;
  before: unknown;
  after: unknown;
}

function show(v: unknown, format?: (field: string, v: unknown) => string, field = ""): string {
  if (v === null || v === undefined) return "—";
  if (format) return format(field, v);
  // Instance ranges, lists and objects in words (a restart's instances), never "[object Object]".
  return formatAuditValue(v);
}

/** Fields that changed, old value struck through, new value beside it. */
export function DiffView({
  changes,
  label = (f) => f,
  format,
}: {
  changes: readonly FieldDiff[];
  label?: (field: string) => string;
  format?: (field: string, value: unknown) => string;
}) {
  if (changes.length === 0) return <p className="text-muted">No settings changed.</p>;
  // A created or deleted item lists every field on one side only: two pairs per row keep it short.
  const oneSided =
    changes.every((c) => c.before === null) || changes.every((c) => c.after === null);
  return (
    <dl
      className={`grid gap-x-4 gap-y-1 ${oneSided ? "grid-cols-[minmax(9rem,auto)_1fr] lg:grid-cols-[minmax(9rem,auto)_1fr_minmax(9rem,auto)_1fr]" : "grid-cols-[minmax(10rem,auto)_1fr]"}`}
      data-testid="diff"
    >
      {changes.map((c) => (
        <div key={c.field} className="contents" data-field={c.field}>
          <dt className="text-muted">{label(c.field)}</dt>
          <dd className="flex flex-wrap items-center gap-1.5 tabular-nums">
            {c.before !== null && c.before !== undefined && (
              <del className="text-bad/90 decoration-bad/60" data-testid="diff-before">
                {show(c.before, format, c.field)}
              </del>
            )}
            {c.before !== null && c.after !== null && (
              <ArrowRight className="size-3.5 text-muted" aria-label="changed to" />
            )}
            {c.after !== null && c.after !== undefined && (
              <ins className="text-ok no-underline" data-testid="diff-after">
                {show(c.after, format, c.field)}
              </ins>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
