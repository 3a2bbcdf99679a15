/**
 * A tiny structural checker for JSON bodies, mirroring how the Mesos master
 * turns JSON into protobuf: unknown fields are ignored, a field of the wrong
 * JSON type or a missing `required` field is an error naming the field.
 */
export type Check = (value: unknown, path: string) => string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const str: Check = (v, p) => (typeof v === "string" ? undefined : `'${p}' must be a string`);

export const bool: Check = (v, p) =>
  typeof v === "boolean" ? undefined : `'${p}' must be a boolean`;

export const num: Check = (v, p) =>
  typeof v === "number" && Number.isFinite(v) ? undefined : `'${p}' must be a number`;

/** int64 fields: a JSON number or a decimal string (proto3 JSON writes them as strings). */
export const int64: Check = (v, p) =>
  (typeof v === "number" && Number.isInteger(v)) || (typeof v === "string" && /^-?\d+$/.test(v))
    ? undefined
    : `'${p}' must be an integer`;

export const integer: Check = (v, p) =>
  typeof v === "number" && Number.isInteger(v) ? undefined : `'${p}' must be an integer`;

/** A `bytes` field: base64 text. */
export const base64: Check = (v, p) =>
  typeof v === "string" && /^[A-Za-z0-9+/]*={0,2}$/.test(v) && v.length % 4 === 0
    ? undefined
    : `'${p}' must be base64`;

export function oneOf(values: readonly string[]): Check {
  const allowed = new Set(values);
  return (v, p) =>
    typeof v === "string" && allowed.has(v)
      ? undefined
      : `'${p}' has unknown value ${JSON.stringify(v)}`;
}

export function arr(item: Check): Check {
  return (v, p) => {
    if (!Array.isArray(v)) return `'${p}' must be an array`;
    for (let i = 0; i < v.length; i++) {
      const err = item(v[i], `${p}[${i}]`);
      if (err !== undefined) return err;
    }
    return undefined;
  };
}

/** Any JSON object (opaque messages we keep but do not read). */
export const anyObject: Check = (v, p) => (isObject(v) ? undefined : `'${p}' must be an object`);

/** `fields` are checked when present; `required` must be present. */
export function obj(fields: Record<string, Check>, required: readonly string[] = []): Check {
  const checks = new Map(Object.entries(fields));
  return (v, p) => {
    if (!isObject(v)) return `'${p}' must be an object`;
    for (const name of required) {
      if (v[name] === undefined) return `missing required field '${p ? `${p}.` : ""}${name}'`;
    }
    // Walk the value's keys, not the schema's: bodies are small, schemas (Call) are wide.
    for (const name in v) {
      const check = checks.get(name);
      const value = v[name];
      if (check === undefined || value === undefined || value === null) continue;
      const err = check(value, p ? `${p}.${name}` : name);
      if (err !== undefined) return err;
    }
    return undefined;
  };
}

/** Defers a check so recursive or later-defined schemas can refer to each other. */
export function lazy(get: () => Check): Check {
  return (v, p) => get()(v, p);
}
