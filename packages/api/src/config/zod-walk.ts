import type { z } from "zod";

/**
 * Finds the object shape a zod schema expects at this level, looking through
 * wrappers (optional, nullable, default, pipes). Used to map Peloton's
 * lowercase keys onto our camelCase ones without a second description of the
 * format.
 */
type AnyDef = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
};

function def(schema: z.ZodType): AnyDef {
  return (schema as unknown as { def: AnyDef }).def;
}

const OPAQUE = new Set(["unknown", "any"]);

export function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const d = def(s);
    if (
      (d.type === "optional" ||
        d.type === "nullable" ||
        d.type === "default" ||
        d.type === "prefault" ||
        d.type === "catch" ||
        d.type === "readonly") &&
      d.innerType
    )
      s = d.innerType;
    else if (d.type === "pipe" && d.in)
      // A pipe from a pre-check on the raw value (`z.unknown().superRefine(…).pipe(shape)`)
      // has its shape on the way out.
      s = OPAQUE.has(def(d.in).type) && d.out ? d.out : d.in;
    else break;
  }
  return s;
}

export function objectShape(schema: z.ZodType): Record<string, z.ZodType> | null {
  const d = def(unwrap(schema));
  return d.type === "object" && d.shape ? d.shape : null;
}

export function arrayElement(schema: z.ZodType): z.ZodType | null {
  const d = def(unwrap(schema));
  return d.type === "array" && d.element ? d.element : null;
}

export function recordValue(schema: z.ZodType): z.ZodType | null {
  const d = def(unwrap(schema));
  return d.type === "record" && d.valueType ? d.valueType : null;
}
