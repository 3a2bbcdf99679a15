/** A list sorted only as far as it is read must read exactly like a sorted copy. */
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../bench/harness.ts";
import { LazySorted } from "../src/preemption/lazy-sorted.ts";

const byNumber = (a: number, b: number) => a - b;

describe("LazySorted", () => {
  it.each([
    { name: "empty", items: [], read: 3 },
    { name: "one", items: [5], read: 1 },
    { name: "duplicates", items: [3, 1, 3, 2, 1], read: 5 },
    { name: "already sorted", items: [1, 2, 3, 4], read: 2 },
    { name: "reversed", items: [9, 7, 5, 3, 1], read: 4 },
  ])("$name: the first items in order", ({ items, read }) => {
    const lazy = new LazySorted([...items], byNumber);
    const want = [...items].sort(byNumber);
    for (let i = 0; i < read; i++) expect(lazy.at(i)).toBe(want[i]);
    expect(lazy.length).toBe(items.length);
  });

  it.each([1, 2, 3, 4, 5])(
    "random list, seed %i: partial reads, then a replay from the start",
    (seed) => {
      const random = seededRandom(seed);
      const items = Array.from({ length: 200 }, () => Math.floor(random() * 50));
      const want = [...items].sort(byNumber);
      const lazy = new LazySorted([...items], byNumber);
      const firstRead = Math.floor(random() * 200);
      for (let i = 0; i < firstRead; i++) expect(lazy.at(i)).toBe(want[i]);
      const all = Array.from({ length: 201 }, (_, i) => lazy.at(i));
      expect(all).toEqual([...want, undefined]);
    },
  );
});
