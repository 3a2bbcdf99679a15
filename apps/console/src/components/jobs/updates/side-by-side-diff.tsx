"use client";
import { ChevronsUpDown } from "lucide-react";
import { useMemo, useState } from "react";
import { formatCount } from "@/lib/format";
import {
  type DiffRow,
  inlineChanges,
  type Segment,
  type SideLine,
  sideBySide,
} from "./side-by-side";

const CELL = "whitespace-pre-wrap break-all px-2 py-px align-top font-mono text-[12px] leading-5";
const NUM =
  "w-10 select-none border-r border-border px-1.5 py-px text-right align-top font-mono text-[11px] leading-5 text-muted tabular-nums";

/** One side of a row: number and text, tinted when removed (left) or added (right). */
function Side({
  line,
  tint,
  segments,
  right = false,
}: {
  line: SideLine | null;
  tint: "removed" | "added" | null;
  /** The line's words, the changed ones marked, when it replaced (or was replaced by) another. */
  segments?: Segment[] | undefined;
  right?: boolean;
}) {
  const bg = tint === "removed" ? "bg-bad/10" : tint === "added" ? "bg-ok/10" : "";
  const edge = right ? "border-l border-l-border" : "";
  if (!line) return <td colSpan={2} className={`bg-surface-2/70 ${edge}`} />;
  return (
    <>
      <td className={`${NUM} ${bg} ${edge}`}>{line.n}</td>
      <td className={`${CELL} ${bg}`} data-side={tint ?? "same"}>
        {tint && (
          <span aria-hidden className={tint === "removed" ? "text-bad" : "text-ok"}>
            {tint === "removed" ? "− " : "+ "}
          </span>
        )}
        {tint && <span className="sr-only">{tint}: </span>}
        {segments ? <Words segments={segments} tint={tint} /> : line.text}
      </td>
    </>
  );
}

/** A replaced line's words, the changed ones highlighted; keyed by where each starts in the line. */
function Words({ segments, tint }: { segments: Segment[]; tint: "removed" | "added" | null }) {
  let at = 0;
  return segments.map((seg) => {
    const key = at;
    at += seg.text.length;
    return seg.changed ? (
      <mark
        key={key}
        className={`rounded-sm text-fg ${tint === "removed" ? "bg-bad/25" : "bg-ok/25"}`}
      >
        {seg.text}
      </mark>
    ) : (
      <span key={key}>{seg.text}</span>
    );
  });
}

function Row({ row }: { row: DiffRow }) {
  if (row.kind === "fold") return null;
  const changed = row.kind === "changed";
  const inline =
    changed && row.left && row.right ? inlineChanges(row.left.text, row.right.text) : null;
  return (
    <tr data-kind={row.kind} className="border-b border-border/40 last:border-0">
      <Side line={row.left} tint={changed && row.left ? "removed" : null} segments={inline?.left} />
      <Side
        line={row.right}
        tint={changed && row.right ? "added" : null}
        segments={inline?.right}
        right
      />
    </tr>
  );
}

/**
 * Two YAML texts side by side, before on the left, after on the right:
 * changed lines tinted and marked (− / +, read out for screen readers),
 * unchanged stretches folded to a button that opens them.
 */
export function SideBySideDiff({
  before,
  after,
  beforeLabel,
  afterLabel,
  testId = "config-diff",
}: {
  before: string;
  after: string;
  beforeLabel: string;
  afterLabel: string;
  testId?: string;
}) {
  // Folds opened by the reader, by where they start (stable while the texts are).
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const diff = useMemo(() => sideBySide(before, after), [before, after]);
  const full = useMemo(() => sideBySide(before, after, Number.MAX_SAFE_INTEGER), [before, after]);

  return (
    <div className="space-y-2" data-testid={testId}>
      <p className="text-xs text-muted" data-testid="diff-summary">
        {diff.added === 0 && diff.removed === 0 ? (
          "The two configurations are the same."
        ) : (
          <>
            <span className="text-ok">+{formatCount(diff.added)}</span>{" "}
            <span className="text-bad">−{formatCount(diff.removed)}</span> lines
          </>
        )}
      </p>
      <div className="overflow-x-auto rounded-md border border-border bg-surface">
        <table className="w-full table-fixed border-collapse">
          <caption className="sr-only">
            {beforeLabel} compared with {afterLabel}
          </caption>
          <colgroup>
            <col className="w-10" />
            <col />
            <col className="w-10" />
            <col />
          </colgroup>
          <thead>
            <tr className="border-b border-border bg-surface-2 text-left text-xs">
              <th scope="col" colSpan={2} className="px-2 py-1.5 font-medium">
                {beforeLabel}
              </th>
              <th
                scope="col"
                colSpan={2}
                className="border-l border-border px-2 py-1.5 font-medium"
              >
                {afterLabel}
              </th>
            </tr>
          </thead>
          <tbody>
            {diff.rows.map((row) => {
              if (row.kind !== "fold")
                return <Row key={`${row.left?.n ?? "-"}:${row.right?.n ?? "-"}`} row={row} />;
              const key = `fold:${row.leftFrom}:${row.rightFrom}`;
              if (open.has(key))
                return full.rows
                  .filter(
                    (r): r is Extract<DiffRow, { kind: "same" }> =>
                      r.kind === "same" &&
                      r.left.n >= row.leftFrom &&
                      r.left.n < row.leftFrom + row.count,
                  )
                  .map((r) => <Row key={`${key}:${r.left.n}`} row={r} />);
              return (
                <tr key={key} className="border-b border-border/40 bg-surface-2/60">
                  <td colSpan={4} className="px-2 py-0.5">
                    <button
                      type="button"
                      className="inline-flex items-center gap-1 text-xs text-accent hover:underline"
                      onClick={() => setOpen(new Set(open).add(key))}
                    >
                      <ChevronsUpDown className="size-3.5" aria-hidden />
                      {formatCount(row.count)} unchanged lines ({row.leftFrom}–
                      {row.leftFrom + row.count - 1})
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
