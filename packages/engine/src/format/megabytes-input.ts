/**
 * Memory and disk typed in the unit people think in (issue #19 item 5):
 * "32 GB" for the 32768 MB the model keeps. Forms show each amount in a
 * unit chosen per field and convert with these helpers; the stored value is
 * always MB. Units are 1024-based and spelled MB/GB/TB, as everywhere else
 * (units.ts); "MiB", "GiB" and "TiB" are read as the same units.
 */

export const MEGABYTE_UNITS = ["MB", "GB", "TB"] as const;
export type MegabyteUnit = (typeof MEGABYTE_UNITS)[number];

/** Each unit's size in MB. */
export const MEGABYTE_UNIT_SIZE: Readonly<Record<MegabyteUnit, number>> = {
  MB: 1,
  GB: 1024,
  TB: 1024 * 1024,
};

/** Decimals an amount keeps in its unit: 0.001 GB is about 1 MB. */
const DECIMALS = 3;
const round = (n: number) => Math.round(n * 10 ** DECIMALS) / 10 ** DECIMALS;

/** MB as an amount of `unit`, to 3 decimals: 32768 MB → 32 (GB). */
export function amountInUnit(mb: number, unit: MegabyteUnit): number {
  return round(mb / MEGABYTE_UNIT_SIZE[unit]);
}

/** An amount of `unit` in MB: 1.5 (GB) → 1536. */
export function megabytesOf(amount: number, unit: MegabyteUnit): number {
  return round(amount * MEGABYTE_UNIT_SIZE[unit]);
}

/**
 * The unit a stored amount reads best in: the largest in which it is at
 * least 1 and exact to 3 decimals (32768 → GB, 1000 → MB, 1536 → GB);
 * `fallback` for 0.
 */
export function preferredMegabyteUnit(mb: number, fallback: MegabyteUnit = "GB"): MegabyteUnit {
  if (mb === 0) return fallback;
  for (const unit of [...MEGABYTE_UNITS].reverse()) {
    const amount = mb / MEGABYTE_UNIT_SIZE[unit];
    if (Math.abs(amount) >= 1 && megabytesOf(amountInUnit(mb, unit), unit) === round(mb))
      return unit;
  }
  return "MB";
}

const UNIT_WORDS: Readonly<Record<string, MegabyteUnit>> = {
  m: "MB",
  mb: "MB",
  mib: "MB",
  g: "GB",
  gb: "GB",
  gib: "GB",
  t: "TB",
  tb: "TB",
  tib: "TB",
};

export type ParsedMegabytes =
  | { readonly ok: true; readonly mb: number; readonly unit: MegabyteUnit }
  | { readonly ok: false; readonly message: string };

const AMOUNT = /^(\d+(?:\.\d*)?|\.\d+)\s*([a-z]*)$/i;

/**
 * What a person typed, in MB: "32" in the field's unit, or with a unit of
 * its own ("1.5 GB", "512MiB", "2t"), which then becomes the field's unit.
 * Thousands separators are allowed ("32,768 MB"); negative amounts and
 * other words are refused, saying what is expected.
 */
export function parseMegabytes(text: string, unit: MegabyteUnit): ParsedMegabytes {
  const trimmed = text.trim().replaceAll(",", "");
  const m = AMOUNT.exec(trimmed);
  const expected = `an amount ≥ 0, optionally followed by MB, GB or TB (got "${text.trim()}")`;
  if (!m) return { ok: false, message: expected };
  const word = m[2]!.toLowerCase();
  const typedUnit = word === "" ? unit : UNIT_WORDS[word];
  if (!typedUnit) return { ok: false, message: expected };
  const amount = Number(m[1]);
  if (!Number.isFinite(amount)) return { ok: false, message: expected };
  return { ok: true, mb: megabytesOf(amount, typedUnit), unit: typedUnit };
}
