import { z } from "zod";
import { boundedText, quoteClipped } from "../limits/bounded.ts";
import { MAX_ENUM_NAME_LENGTH } from "../limits/limits.ts";

/**
 * A Peloton enum: written as its name (any case) or its protobuf number, read
 * as the name (peloton-semantics.md: `type: 1` is SERVICE). Peloton's protos
 * prefix some names (`CONDITION_EQUAL`, `PLACEMENT_STRATEGY_PACK_HOST`,
 * `TYPE_PREEMPTIBLE`); with `prefix` both spellings are the same value and the
 * short one is what comes out.
 */
export function pelotonEnum<const T extends Record<string, number>>(
  values: T,
  options: { readonly prefix?: string } = {},
) {
  const names = Object.keys(values) as (keyof T & string)[];
  const prefix = options.prefix?.toLowerCase();
  const shorten = (name: string): string =>
    prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name;
  return z
    .union([boundedText(MAX_ENUM_NAME_LENGTH), z.number()])
    .transform((v, ctx): keyof T & string => {
      const hit =
        typeof v === "number"
          ? names.find((n) => values[n] === v)
          : names.find(
              (n) => n.toLowerCase() === shorten(v.toLowerCase().trim().replace(/[-\s]/g, "_")),
            );
      if (hit) return hit;
      ctx.addIssue({
        code: "custom",
        message: `must be one of ${names.map((n) => `${n} (${values[n]})`).join(", ")}; got ${typeof v === "string" ? quoteClipped(v) : v}`,
      });
      return z.NEVER;
    });
}
