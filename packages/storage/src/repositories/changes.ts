import { CHANGE_CHANNEL, type Change, encodeChange } from "../live/change.ts";
import type { DbOrTx } from "../tx.ts";

/**
 * Announces changes. Inside a transaction PostgreSQL delivers the NOTIFY only
 * when the transaction commits (and drops it on rollback), so an announcement
 * can never get ahead of the data it describes.
 */
export function changesRepository(db: DbOrTx) {
  return {
    async announce(...changes: Change[]): Promise<void> {
      if (changes.length === 0) return;
      // One round trip for all of them.
      await db.$executeRaw`SELECT pg_notify(${CHANGE_CHANNEL}, p)
        FROM unnest(${changes.map(encodeChange)}::text[]) AS p`;
    },
  };
}
