/**
 * RecordIO framing (Mesos docs/recordio.md): each record is its length in
 * bytes as decimal ASCII, a "\n", then exactly that many bytes. There is no
 * separator after a record. Chunk boundaries of the HTTP stream are
 * meaningless: a record may be split across chunks and one chunk may carry
 * several records.
 */

const NEWLINE = 0x0a;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
/** A length line longer than this is garbage, not a size (uint64 has 20 digits). */
const MAX_LENGTH_DIGITS = 20;

/** Frames one record. `record` is measured in UTF-8 bytes, not characters. */
export function encodeRecord(record: string | Uint8Array): Buffer {
  const body = typeof record === "string" ? Buffer.from(record, "utf8") : Buffer.from(record);
  return Buffer.concat([Buffer.from(`${body.length}\n`, "latin1"), body]);
}

/** Frames a string record without an extra copy of the body (hot path of mesos-sim). */
export function encodeRecordString(record: string): string {
  return `${Buffer.byteLength(record, "utf8")}\n${record}`;
}

export class RecordIOError extends Error {
  override readonly name = "RecordIOError";
}

/**
 * Incremental decoder: `push` chunks as they arrive, get complete records
 * back. Bodies of a known length are collected as a list of chunks and
 * concatenated once, so a multi-megabyte OFFERS record arriving in small
 * chunks costs linear time.
 */
export class RecordIODecoder {
  private readonly maxRecordBytes: number;
  /** Digits of the length line read so far (the line may span chunks). */
  private lengthDigits = "";
  /** Body bytes still expected for the current record, or -1 while reading a length. */
  private remaining = -1;
  private parts: Buffer[] = [];

  constructor(options: { maxRecordBytes?: number } = {}) {
    this.maxRecordBytes = options.maxRecordBytes ?? 256 * 1024 * 1024;
  }

  /** Feeds one chunk; returns the records it completed, in order. */
  push(chunk: Uint8Array): Buffer[] {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    const out: Buffer[] = [];
    let pos = 0;
    while (pos < buf.length) {
      if (this.remaining < 0) {
        pos = this.readLength(buf, pos);
        continue;
      }
      const take = Math.min(this.remaining, buf.length - pos);
      if (this.parts.length === 0 && take === this.remaining) {
        // Whole body inside this chunk: slice without copying.
        out.push(buf.subarray(pos, pos + take));
      } else {
        this.parts.push(buf.subarray(pos, pos + take));
        if (take === this.remaining) {
          out.push(Buffer.concat(this.parts));
          this.parts = [];
        }
      }
      pos += take;
      this.remaining -= take;
      if (this.remaining === 0) this.remaining = -1;
    }
    return out;
  }

  /** True when no partial record is pending (a clean place for the stream to end). */
  get idle(): boolean {
    return this.remaining < 0 && this.lengthDigits === "";
  }

  private readLength(buf: Buffer, start: number): number {
    let pos = start;
    while (pos < buf.length) {
      const byte = buf[pos]!;
      pos++;
      if (byte === NEWLINE) {
        // The docs' reference reader skips empty lines; so do we.
        if (this.lengthDigits === "") continue;
        const size = Number(this.lengthDigits);
        this.lengthDigits = "";
        if (size > this.maxRecordBytes) {
          throw new RecordIOError(`record of ${size} bytes exceeds ${this.maxRecordBytes}`);
        }
        if (size === 0) continue;
        this.remaining = size;
        return pos;
      }
      if (byte < DIGIT_0 || byte > DIGIT_9 || this.lengthDigits.length >= MAX_LENGTH_DIGITS) {
        throw new RecordIOError(`invalid record length byte 0x${byte.toString(16)}`);
      }
      this.lengthDigits += String.fromCharCode(byte);
    }
    return pos;
  }
}
