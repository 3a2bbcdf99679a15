/**
 * A `timestamptz[]` in PostgreSQL's binary wire format, for the task
 * writer's time columns (every event's `at`). `pg` sends a Buffer parameter
 * as binary, so a time travels as its 8 bytes: no `toISOString` here (half a
 * microsecond a value, the task writer's largest single cost in building
 * its arrays: two events per task) and no timestamp parsing in PostgreSQL.
 * The other columns stay text literals (array-literal.ts), which for uuids
 * and short strings measured cheaper to build than their binary form.
 *
 * Layout (`array_recv`): int32 dimensions (1), int32 has-nulls, int32
 * element type oid (1184), int32 length, int32 lower bound (1), then per
 * element int32 byte length (8, or -1 for NULL) and an int64 of
 * microseconds since 2000-01-01 UTC. PostgreSQL checks the element oid
 * against the parameter's type: cast the parameter to `timestamptz[]`.
 */

const TIMESTAMPTZ_OID = 1184;
const HEADER_BYTES = 20;
/** 2000-01-01T00:00:00Z, PostgreSQL's epoch, in Unix milliseconds. */
const PG_EPOCH_MS = 946_684_800_000;
const TWO_TO_32 = 2 ** 32;

export function timestamptzArray(values: readonly (Date | null | undefined)[]): Buffer {
  let nulls = 0;
  for (const value of values) if (value === null || value === undefined) nulls++;
  const buf = Buffer.allocUnsafe(HEADER_BYTES + values.length * 4 + (values.length - nulls) * 8);
  buf.writeInt32BE(1, 0);
  buf.writeInt32BE(nulls > 0 ? 1 : 0, 4);
  buf.writeInt32BE(TIMESTAMPTZ_OID, 8);
  buf.writeInt32BE(values.length, 12);
  buf.writeInt32BE(1, 16);
  let at = HEADER_BYTES;
  for (const value of values) {
    if (value === null || value === undefined) {
      buf.writeInt32BE(-1, at);
      at += 4;
      continue;
    }
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw new TypeError("timestamptz element: an invalid Date");
    // Microseconds fit a double exactly (2^53 µs is 285 years): the int64 as two halves.
    const micros = (ms - PG_EPOCH_MS) * 1000;
    const high = Math.floor(micros / TWO_TO_32);
    buf.writeInt32BE(8, at);
    buf.writeInt32BE(high, at + 4);
    buf.writeUInt32BE(micros - high * TWO_TO_32, at + 8);
    at += 12;
  }
  return buf;
}
