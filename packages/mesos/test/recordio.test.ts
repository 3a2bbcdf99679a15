import { describe, expect, it } from "vitest";
import { encodeRecord, RecordIODecoder, RecordIOError } from "../src/index.ts";
import { fixture, fixtureBytes } from "./support/fixtures.ts";

const stream = fixtureBytes("subscribe-stream.recordio");
const expected = [fixture("subscribed-event"), fixture("heartbeat-event"), fixture("offers-event")];

function decodeInChunks(bytes: Buffer, size: number): unknown[] {
  const decoder = new RecordIODecoder();
  const out: unknown[] = [];
  for (let i = 0; i < bytes.length; i += size) {
    for (const r of decoder.push(bytes.subarray(i, i + size)))
      out.push(JSON.parse(r.toString("utf8")));
  }
  expect(decoder.idle).toBe(true);
  return out;
}

describe("RecordIO decoder", () => {
  it("decodes the fixture stream (SUBSCRIBED, HEARTBEAT, OFFERS) in one chunk", () => {
    expect(decodeInChunks(stream, stream.length)).toEqual(expected);
  });

  it("decodes it in chunks of every size, records split anywhere", () => {
    for (let size = 1; size <= stream.length; size++) {
      expect(decodeInChunks(stream, size), `chunk size ${size}`).toEqual(expected);
    }
  });

  it("frames HEARTBEAT as 20 bytes", () => {
    expect(encodeRecord('{"type":"HEARTBEAT"}').toString()).toBe('20\n{"type":"HEARTBEAT"}');
  });

  it("counts bytes, not characters, and round-trips multi-byte UTF-8", () => {
    const text = JSON.stringify({ message: "tâche échouée ✓" });
    const framed = Buffer.concat([encodeRecord(text), encodeRecord("{}")]);
    expect(framed.toString().startsWith(`${Buffer.byteLength(text)}\n`)).toBe(true);
    const decoder = new RecordIODecoder();
    // Split inside a multi-byte character.
    const cut = framed.indexOf(Buffer.from("✓")) + 1;
    const records = [
      ...decoder.push(framed.subarray(0, cut)),
      ...decoder.push(framed.subarray(cut)),
    ];
    expect(records.map((r) => r.toString("utf8"))).toEqual([text, "{}"]);
  });

  it("skips blank lines between records, as the reference reader does", () => {
    const decoder = new RecordIODecoder();
    expect(decoder.push(Buffer.from("\n2\n{}\n\n2\n[]")).map(String)).toEqual(["{}", "[]"]);
  });

  it("rejects a length that is not a number, and oversized records", () => {
    expect(() => new RecordIODecoder().push(Buffer.from("12x\n"))).toThrow(RecordIOError);
    expect(() => new RecordIODecoder({ maxRecordBytes: 10 }).push(Buffer.from("11\n"))).toThrow(
      /exceeds/,
    );
  });
});
