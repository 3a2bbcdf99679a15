import type { DbOrTx } from "../tx.ts";

export interface PoolChangeRecord {
  id: string;
  poolId: string;
  poolPath: string;
  action: "CREATE" | "UPDATE" | "DELETE";
  actor: string;
  at: Date;
  version: number;
  before: unknown;
  after: unknown;
}

export interface Page<T> {
  items: T[];
  /** Pass back to get the next page; null on the last page. */
  nextCursor: string | null;
}

/** A pool's change history, newest first, keyset-paginated on the change id. */
export function poolHistoryRepository(db: DbOrTx) {
  return {
    async list(
      poolPath: string,
      opts: { cursor?: string | null; limit: number },
    ): Promise<Page<PoolChangeRecord>> {
      const rows = await db.poolChange.findMany({
        where: { poolPath, ...(opts.cursor ? { id: { lt: BigInt(opts.cursor) } } : {}) },
        orderBy: { id: "desc" },
        take: opts.limit + 1,
      });
      const items = rows.slice(0, opts.limit).map((r) => ({ ...r, id: r.id.toString() }));
      return { items, nextCursor: rows.length > opts.limit ? (items.at(-1)?.id ?? null) : null };
    },
  };
}
