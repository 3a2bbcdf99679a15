/** The rows of the side-by-side diff of two configuration versions. */
import { describe, expect, it } from "vitest";
import { inlineChanges, sideBySide } from "../src/components/jobs/updates/side-by-side.ts";

const lines = (n: number, prefix = "line") =>
  `${Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join("\n")}\n`;

describe("side-by-side diff rows", () => {
  it("pairs a replaced line beside its replacement, numbered in each text", () => {
    const { rows, added, removed } = sideBySide(
      "name: web\ninstanceCount: 2\ncommand: a\n",
      "name: web\ninstanceCount: 4\ncommand: a\n",
    );
    expect({ added, removed }).toEqual({ added: 1, removed: 1 });
    expect(rows).toEqual([
      { kind: "same", left: { n: 1, text: "name: web" }, right: { n: 1, text: "name: web" } },
      {
        kind: "changed",
        left: { n: 2, text: "instanceCount: 2" },
        right: { n: 2, text: "instanceCount: 4" },
      },
      { kind: "same", left: { n: 3, text: "command: a" }, right: { n: 3, text: "command: a" } },
    ]);
  });

  it("leaves the other side empty for a line only added or only removed; numbers move on", () => {
    const { rows } = sideBySide("a\nb\nc\n", "a\nc\nd\ne\n");
    expect(rows).toEqual([
      { kind: "same", left: { n: 1, text: "a" }, right: { n: 1, text: "a" } },
      { kind: "changed", left: { n: 2, text: "b" }, right: null },
      { kind: "same", left: { n: 3, text: "c" }, right: { n: 2, text: "c" } },
      { kind: "changed", left: null, right: { n: 3, text: "d" } },
      { kind: "changed", left: null, right: { n: 4, text: "e" } },
    ]);
  });

  it("folds unchanged runs beyond the context lines, saying how many and from where", () => {
    // 20 lines, line 10 changed: lines 7–9 and 11–13 stay as context.
    const before = lines(20);
    const after = before.replace("line 10\n", "line ten\n");
    const { rows } = sideBySide(before, after, 3);
    expect(rows.map((r) => r.kind)).toEqual([
      "fold",
      "same",
      "same",
      "same",
      "changed",
      "same",
      "same",
      "same",
      "fold",
    ]);
    expect(rows[0]).toEqual({ kind: "fold", count: 6, leftFrom: 1, rightFrom: 1 });
    expect(rows[8]).toEqual({ kind: "fold", count: 7, leftFrom: 14, rightFrom: 14 });
  });

  it("shows a lone unchanged line instead of folding it", () => {
    // Context 1 around line 2 and line 6 leaves line 4 alone between them.
    const before = "1\n2\n3\n4\n5\n6\n7\n";
    const after = "1\nB\n3\n4\n5\nF\n7\n";
    const { rows } = sideBySide(before, after, 1);
    expect(rows.some((r) => r.kind === "fold")).toBe(false);
    expect(rows).toHaveLength(7);
  });

  it("has nothing changed for equal texts, and handles a missing last newline", () => {
    expect(sideBySide("a\nb", "a\nb").added).toBe(0);
    const { rows } = sideBySide("a\nb", "a\nb\n", 0);
    expect(rows.filter((r) => r.kind === "changed")).toEqual([
      { kind: "changed", left: { n: 2, text: "b" }, right: { n: 2, text: "b" } },
    ]);
  });
});

describe("inline changes of a replaced line", () => {
  it("marks the words removed on the left and added on the right", () => {
    const { left, right } = inlineChanges(
      "  value: 'echo v1; sleep 600'",
      "  value: 'echo v2; sleep 600'",
    );
    expect(left.filter((s) => s.changed).map((s) => s.text)).toEqual(["v1"]);
    expect(right.filter((s) => s.changed).map((s) => s.text)).toEqual(["v2"]);
    expect(left.map((s) => s.text).join("")).toBe("  value: 'echo v1; sleep 600'");
    expect(right.map((s) => s.text).join("")).toBe("  value: 'echo v2; sleep 600'");
  });
});
