/** The one formatter of amounts and units (CLI and console): MB in steps of 1024, one spelling. */
import { describe, expect, it } from "vitest";
import {
  formatBytes,
  formatElapsed,
  formatInputAmount,
  formatMegabytes,
  formatResource,
  formatResourcePair,
} from "../src/format/units.ts";

describe("amounts and units", () => {
  it("shows MB in steps of 1024: MB, GB, TB", () => {
    expect(formatMegabytes(512)).toBe("512 MB");
    expect(formatMegabytes(1536)).toBe("1.5 GB");
    expect(formatMegabytes(1536 * 1024)).toBe("1.5 TB");
    expect(formatMegabytes(1000, 2)).toBe("1,000 MB");
    expect(formatMegabytes(1234, 2)).toBe("1.21 GB");
  });

  it("reads each kind in its unit", () => {
    expect(formatResource("cpu", 1)).toBe("1 core");
    expect(formatResource("cpu", 2.25)).toBe("2.25 cores");
    expect(formatResource("gpu", 2)).toBe("2 GPUs");
    expect(formatResource("memory", 262144)).toBe("256 GB");
  });

  it("puts two amounts in the larger one's unit", () => {
    expect(formatResourcePair("memory", 1536, 48000)).toBe("1.5 / 46.9 GB");
    expect(formatResourcePair("disk", 0, 512)).toBe("0 / 512 MB");
    expect(formatResourcePair("cpu", 3, 12.5)).toBe("3 / 12.5 cores");
  });

  it("shows an input amount in MB and, when large, in its larger unit", () => {
    expect(formatInputAmount("memory", 512)).toBe("512 MB");
    expect(formatInputAmount("memory", 2048)).toBe("2,048 MB (2 GB)");
  });

  it("shows log sizes in the same spelling", () => {
    expect(formatBytes(900)).toBe("900 B");
    expect(formatBytes(64 * 1024)).toBe("64 KB");
    expect(formatBytes(2.5 * 1024 * 1024)).toBe("2.5 MB");
  });
});

describe("formatElapsed: how long, exact to the second below an hour", () => {
  it.each([
    { ms: 0, want: "0 s" },
    { ms: 42_000, want: "42 s" },
    { ms: 42_999, want: "42 s" },
    { ms: 60_000, want: "1 min" },
    { ms: 200_000, want: "3 min 20 s" },
    { ms: 2 * 3_600_000 + 5 * 60_000, want: "2 h 5 min" },
    { ms: 3 * 86_400_000 + 4 * 3_600_000, want: "3 d 4 h" },
    { ms: -5, want: "0 s" },
  ])("$ms ms → $want", ({ ms, want }) => {
    expect(formatElapsed(ms)).toBe(want);
  });
});
