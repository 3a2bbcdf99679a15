/** Memory and disk in the units people type (issue #19 item 5): the form's conversions. */
import { describe, expect, it } from "vitest";
import {
  amountInUnit,
  megabytesOf,
  parseMegabytes,
  preferredMegabyteUnit,
} from "../src/format/units.ts";

describe("parseMegabytes", () => {
  it.each([
    { name: "a bare number is in the field's unit", text: "32", unit: "GB", mb: 32_768, as: "GB" },
    { name: "a fraction", text: "1.5", unit: "GB", mb: 1536, as: "GB" },
    { name: "a unit typed wins over the field's", text: "512 MB", unit: "GB", mb: 512, as: "MB" },
    { name: "MiB/GiB/TiB read as MB/GB/TB", text: "2GiB", unit: "MB", mb: 2048, as: "GB" },
    { name: "one letter is enough, any case", text: "1t", unit: "MB", mb: 1_048_576, as: "TB" },
    { name: "thousands separators", text: "32,768 mb", unit: "GB", mb: 32_768, as: "MB" },
    { name: "a leading dot", text: ".5", unit: "GB", mb: 512, as: "GB" },
    { name: "zero", text: "0", unit: "GB", mb: 0, as: "GB" },
    { name: "spaces around", text: "  4 GB ", unit: "MB", mb: 4096, as: "GB" },
  ] as const)("$name: $text", ({ text, unit, mb, as }) => {
    expect(parseMegabytes(text, unit)).toEqual({ ok: true, mb, unit: as });
  });

  it.each([
    { name: "empty", text: "" },
    { name: "negative", text: "-1" },
    { name: "a word", text: "lots" },
    { name: "an unknown unit", text: "3 PB" },
    { name: "bytes are not a unit here", text: "3 KB" },
    { name: "two numbers", text: "1 2" },
  ])("refuses $name, saying what it expects", ({ text }) => {
    const r = parseMegabytes(text, "GB");
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.message).toBe(
        `an amount ≥ 0, optionally followed by MB, GB or TB (got "${text.trim()}")`,
      );
  });
});

describe("conversions", () => {
  it.each([
    { mb: 32_768, unit: "GB", amount: 32 },
    { mb: 1536, unit: "GB", amount: 1.5 },
    { mb: 1000, unit: "GB", amount: 0.977 }, // 1000 / 1024 = 0.9765…, to 3 decimals
    { mb: 3_145_728, unit: "TB", amount: 3 },
    { mb: 100, unit: "MB", amount: 100 },
  ] as const)("$mb MB = $amount $unit", ({ mb, unit, amount }) => {
    expect(amountInUnit(mb, unit)).toBe(amount);
  });

  it("megabytesOf is the inverse for amounts exact in the unit", () => {
    for (const mb of [0, 512, 1536, 32_768, 1_048_576])
      expect(megabytesOf(amountInUnit(mb, "GB"), "GB")).toBe(mb);
  });

  it.each([
    { mb: 32_768, unit: "GB" },
    { mb: 1536, unit: "GB" },
    { mb: 1000, unit: "MB" }, // below 1 GB
    { mb: 1025, unit: "MB" }, // 1.0009765625 GB is not exact to 3 decimals
    { mb: 2_097_152, unit: "TB" },
    { mb: 0, unit: "GB" }, // the fallback
  ] as const)("preferredMegabyteUnit($mb) = $unit", ({ mb, unit }) => {
    expect(preferredMegabyteUnit(mb)).toBe(unit);
  });
});
