/**
 * A list read in sorted order and sorted only as far as it is read: a binary
 * min-heap that pops into a sorted prefix. A preemption walk usually stops
 * after a few victims of a pool's many tasks; this costs O(n) to build plus
 * O(log n) per item read, where a full sort costs O(n log n) up front.
 * Reading again from the start replays the prefix.
 */
export class LazySorted<T> {
  private readonly sorted: T[] = [];
  private heapified = false;

  /** Takes `items` over (it becomes the heap). */
  constructor(
    private readonly heap: T[],
    private readonly compare: (a: T, b: T) => number,
  ) {}

  get length(): number {
    return this.sorted.length + this.heap.length;
  }

  /** The `i`-th smallest item, or undefined past the end. */
  at(i: number): T | undefined {
    while (this.sorted.length <= i && this.heap.length > 0) this.sorted.push(this.pop());
    return this.sorted[i];
  }

  private pop(): T {
    const h = this.heap;
    if (!this.heapified) {
      for (let i = (h.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
      this.heapified = true;
    }
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(i: number): void {
    const h = this.heap;
    const n = h.length;
    const item = h[i]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.compare(h[child + 1]!, h[child]!) < 0) child++;
      if (this.compare(h[child]!, item) >= 0) break;
      h[i] = h[child]!;
      i = child;
    }
    h[i] = item;
  }
}
