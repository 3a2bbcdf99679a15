/** The chart's bucket spans: the zone said once, the end's date only when it is another day. */
import { format } from "date-fns";
import { describe, expect, it } from "vitest";
import { formatRange } from "../src/lib/time.ts";

describe("formatRange", () => {
  // Local times, so the test reads the same in any zone; the offset is the zone's own.
  const at = (day: number, hour: number) => new Date(2026, 10, day, hour, 0);
  const zone = (d: Date) => format(d, "xxx");

  it("an hour within a day: the end's time only, then the zone", () => {
    expect(formatRange(at(25, 12), at(25, 13))).toBe(
      `2026-11-25 12:00 – 13:00 ${zone(at(25, 13))}`,
    );
  });

  it("a span into the next day names the end's date", () => {
    expect(formatRange(at(25, 23), at(26, 1))).toBe(
      `2026-11-25 23:00 – 2026-11-26 01:00 ${zone(at(26, 1))}`,
    );
  });
});
