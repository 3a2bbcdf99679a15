/**
 * Every item of a keyset-paged list: pages of `pageSize` fetched one after
 * another, following the cursor, until the last one.
 */
export async function allPages<T>(
  fetchPage: (
    cursor: string | null,
    limit: number,
  ) => Promise<{ items: T[]; nextCursor: string | null }>,
  opts: { pageSize: number },
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: T[]; nextCursor: string | null } = await fetchPage(cursor, opts.pageSize);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
