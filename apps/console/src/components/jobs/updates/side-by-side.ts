/**
 * Two texts (two configuration versions' YAML) as the rows of a
 * side-by-side diff: the line diff is jsdiff's (`diffLines`); this only lays
 * it out. Removed lines sit left beside the lines added in their place;
 * long runs of unchanged lines fold to a count, keeping `context` lines
 * around each change.
 */
import { diffLines, diffWordsWithSpace } from "diff";

export interface SideLine {
  /** 1-based line number in its own text. */
  n: number;
  text: string;
}

export type DiffRow =
  | { kind: "same"; left: SideLine; right: SideLine }
  /** A removed line (left), an added one (right), or one replaced by the other. */
  | { kind: "changed"; left: SideLine | null; right: SideLine | null }
  /** Unchanged lines not shown: `count` of them from these line numbers. */
  | { kind: "fold"; count: number; leftFrom: number; rightFrom: number };

export interface SideBySide {
  rows: DiffRow[];
  added: number;
  removed: number;
}

const linesOf = (value: string): string[] => {
  const lines = value.split("\n");
  // A part ends with its newline: the empty string after it is no line.
  if (lines.at(-1) === "") lines.pop();
  return lines;
};

export function sideBySide(before: string, after: string, context = 3): SideBySide {
  const full: DiffRow[] = [];
  let l = 1;
  let r = 1;
  let added = 0;
  let removed = 0;
  let pendingLeft: SideLine[] = [];
  let pendingRight: SideLine[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(pendingLeft.length, pendingRight.length); i++)
      full.push({ kind: "changed", left: pendingLeft[i] ?? null, right: pendingRight[i] ?? null });
    pendingLeft = [];
    pendingRight = [];
  };
  for (const part of diffLines(before, after)) {
    const lines = linesOf(part.value);
    if (part.removed) {
      removed += lines.length;
      pendingLeft.push(...lines.map((text) => ({ n: l++, text })));
    } else if (part.added) {
      added += lines.length;
      pendingRight.push(...lines.map((text) => ({ n: r++, text })));
    } else {
      flush();
      for (const text of lines)
        full.push({ kind: "same", left: { n: l++, text }, right: { n: r++, text } });
    }
  }
  flush();
  return { rows: fold(full, context), added, removed };
}

/** Keeps `context` unchanged rows on each side of a change; the rest of each run becomes one fold. */
function fold(rows: DiffRow[], context: number): DiffRow[] {
  const near = rows.map(() => false);
  rows.forEach((row, i) => {
    if (row.kind !== "changed") return;
    for (let j = Math.max(0, i - context); j <= Math.min(rows.length - 1, i + context); j++)
      near[j] = true;
  });
  const out: DiffRow[] = [];
  let run: Extract<DiffRow, { kind: "same" }>[] = [];
  const close = () => {
    // A fold of a single line hides nothing worth a click: show the line.
    if (run.length === 1) out.push(run[0]!);
    else if (run.length > 1)
      out.push({
        kind: "fold",
        count: run.length,
        leftFrom: run[0]!.left.n,
        rightFrom: run[0]!.right.n,
      });
    run = [];
  };
  rows.forEach((row, i) => {
    if (row.kind === "same" && !near[i]) {
      run.push(row);
      return;
    }
    close();
    out.push(row);
  });
  close();
  return out;
}

export interface Segment {
  text: string;
  /** Removed (on the left) or added (on the right) within the line. */
  changed: boolean;
}

/**
 * A replaced line's words that changed (jsdiff's `diffWordsWithSpace`): the
 * left keeps what was removed, the right what was added, each marked.
 */
export function inlineChanges(
  before: string,
  after: string,
): { left: Segment[]; right: Segment[] } {
  const left: Segment[] = [];
  const right: Segment[] = [];
  for (const part of diffWordsWithSpace(before, after)) {
    if (!part.added) left.push({ text: part.value, changed: part.removed });
    if (!part.removed) right.push({ text: part.value, changed: part.added });
  }
  return { left, right };
}
