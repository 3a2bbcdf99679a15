/**
 * Planner settings for the statements that need them, not for every
 * connection: a setting that helps keyed writes can turn other reads to
 * worse plans (measured below).
 */
import type { DbOrTx } from "./tx.ts";

/**
 * For the rest of the transaction, prices a random page read as a read from
 * memory (`random_page_cost` 1.1; PostgreSQL's default, 4, models a spinning
 * disk). A statement that joins a few hundred rows given as arrays to
 * `tasks` by primary key (`UPDATE tasks … FROM unnest(…)`, the task writer's
 * batches) is otherwise planned as a hash join over the whole table while it
 * holds between about 20,000 and 200,000 rows: 57 ms for a 640-row batch at
 * 120,000 rows, against 14 ms probing the primary key. Set for every
 * connection instead, the same price made the preemption history's reads
 * slower (`preemptions.list_page_1m`), so it stays with the keyed writes.
 */
export async function preferIndexProbes(tx: DbOrTx): Promise<void> {
  await tx.$queryRaw`SELECT set_config('random_page_cost', '1.1', true)`;
}
