import pg from "pg";
import { describe, expect, it } from "vitest";
import { timestamptz } from "../src/direct-rows.ts";

const pgParse = pg.types.getTypeParser(1184) as (text: string) => Date;

describe("timestamptz", () => {
  it.each([
    "2026-11-29 09:52:09+00",
    "2026-11-29 09:52:09.1+00",
    "2026-11-29 09:52:09.12+00",
    "2026-11-29 09:52:09.123+00",
    "2026-11-29 09:52:09.123456+00",
    "2026-11-29 09:52:09.999999+00",
    "2026-02-28 23:59:59.5-08",
    "2024-02-29 00:00:00+05:30",
    "1970-01-01 00:00:00+00",
    "1969-12-31 23:59:59.999+00",
    "9999-12-31 23:59:59.999-03:30",
    "0100-01-01 00:00:00+00",
  ])("reads %s as pg does", (text) => {
    expect(timestamptz(text).getTime()).toBe(pgParse(text).getTime());
  });

  it("reads 5,000 times of every shape PostgreSQL writes as pg does", () => {
    // A seeded walk over years 100-9999, every fraction length and offset form.
    let seed = 7;
    const next = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const pad = (value: number, width: number) => String(value).padStart(width, "0");
    for (let i = 0; i < 5_000; i++) {
      const places = next(7);
      const fraction = places === 0 ? "" : `.${pad(next(10 ** places), places)}`;
      const hours = pad(next(15), 2);
      const offset = `${next(2) ? "+" : "-"}${hours}${next(2) ? `:${pad(next(60), 2)}` : ""}`;
      const text =
        `${pad(100 + next(9900), 4)}-${pad(1 + next(12), 2)}-${pad(1 + next(28), 2)} ` +
        `${pad(next(24), 2)}:${pad(next(60), 2)}:${pad(next(60), 2)}${fraction}${offset}`;
      expect(timestamptz(text).getTime(), text).toBe(pgParse(text).getTime());
    }
  });

  it.each([
    "0050-06-01 12:00:00+00",
    "0001-01-01 00:00:00+00 BC",
    "1890-01-01 00:00:00+00:53:28",
    "2026-11-29 09:52:09.1234567+00",
    "2026-11-29 09:52:09.+00",
    "2026-11-29 09:52:09 00",
  ])("hands %s to pg's own parser", (text) => {
    expect(timestamptz(text)).toEqual(pgParse(text));
  });

  it("reads ±infinity as an invalid Date, as $queryRaw does", () => {
    expect(timestamptz("infinity").getTime()).toBeNaN();
    expect(timestamptz("-infinity").getTime()).toBeNaN();
  });
});
