import { describe, expect, it } from "vitest";
import { collect, type Page, pages } from "../src/calls/pages.ts";

/** A router list over 0..n-1, `size` a page, recording what each read asked for. */
function list(n: number, size: number) {
  const asked: { cursor: string | null; wanted: number }[] = [];
  const read = async (cursor: string | null, wanted: number): Promise<Page<number>> => {
    asked.push({ cursor, wanted });
    const from = cursor === null ? 0 : Number(cursor);
    const to = Math.min(n, from + Math.min(size, wanted));
    const items = Array.from({ length: to - from }, (_, i) => from + i);
    return { items, nextCursor: to < n ? String(to) : null };
  };
  return { read, asked };
}

describe("collect", () => {
  it("reads every page to the end", async () => {
    const { read, asked } = list(7, 3);
    expect(await collect(read)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(asked.map((a) => a.cursor)).toEqual([null, "3", "6"]);
  });

  it("asks for what is still missing and stops at the limit", async () => {
    const { read, asked } = list(100, 3);
    expect(await collect(read, { limit: 5 })).toEqual([0, 1, 2, 3, 4]);
    expect(asked.map((a) => a.wanted)).toEqual([5, 2]);
  });

  it("keeps only what `keep` accepts, and no more than the limit of those", async () => {
    const { read } = list(20, 4);
    expect(await collect(read, { keep: (i) => i % 3 === 0 })).toEqual([0, 3, 6, 9, 12, 15, 18]);
    // A reader that asks for whole pages (keep filters after the read) gets more than missing: cut.
    const { read: whole } = list(20, 10);
    expect(
      await collect((cursor) => whole(cursor, 10), { limit: 2, keep: (i) => i % 2 === 0 }),
    ).toEqual([0, 2]);
  });

  it("reads one page of an empty list", async () => {
    const { read, asked } = list(0, 3);
    expect(await collect(read)).toEqual([]);
    expect(asked).toHaveLength(1);
  });
});

describe("pages", () => {
  it("yields each page, reading the next only when asked", async () => {
    const { read, asked } = list(5, 2);
    const seen: number[][] = [];
    for await (const items of pages(read)) {
      seen.push([...items]);
      expect(asked).toHaveLength(seen.length);
    }
    expect(seen).toEqual([[0, 1], [2, 3], [4]]);
  });
});
