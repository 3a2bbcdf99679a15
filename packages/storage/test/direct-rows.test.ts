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

  it.each(["0050-06-01 12:00:00+00", "0001-01-01 00:00:00+00 BC", "1890-01-01 00:00:00+00:53:28"])(
    "hands %s to pg's own parser",
    (text) => {
      expect(timestamptz(text)).toEqual(pgParse(text));
    },
  );

  it("reads ±infinity as an invalid Date, as $queryRaw does", () => {
    expect(timestamptz("infinity").getTime()).toBeNaN();
    expect(timestamptz("-infinity").getTime()).toBeNaN();
  });
});
