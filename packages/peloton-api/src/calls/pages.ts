/**
 * Reading a router list to its end: the router answers a page at a time
 * (keyset cursors, at most 500–1,000 items), while many of Peloton's
 * methods answer with everything at once or stream page after page.
 */

/** A page of a router list: its items and the next page's cursor, null after the last. */
export interface Page<T> {
  items: readonly T[];
  nextCursor: string | null;
}

/** Reads the page at `cursor`; `wanted` is how many items the reader still needs. */
export type ReadPage<T> = (cursor: string | null, wanted: number) => Promise<Page<T>>;

/** Each page's items in order, each page read only when the previous one was consumed. */
export async function* pages<T>(read: ReadPage<T>): AsyncGenerator<readonly T[]> {
  let cursor: string | null = null;
  do {
    const page: Page<T> = await read(cursor, Number.POSITIVE_INFINITY);
    yield page.items;
    cursor = page.nextCursor;
  } while (cursor);
}

/** Every item (those `keep` accepts), or the first `limit` of them. */
export async function collect<T>(
  read: ReadPage<T>,
  { limit = Number.POSITIVE_INFINITY, keep }: { limit?: number; keep?: (item: T) => boolean } = {},
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await read(cursor, limit - items.length);
    for (const item of page.items) if (!keep || keep(item)) items.push(item);
    cursor = page.nextCursor;
  } while (cursor && items.length < limit);
  return items.length > limit ? items.slice(0, limit) : items;
}
