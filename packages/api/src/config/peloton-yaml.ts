/**
 * Decoding Peloton's YAML files (peloton-semantics.md, "How Peloton's YAML
 * files are spelled"): keys in all-lowercase or camelCase are the same key,
 * keys present with `null` mean "not set", and every problem names the field
 * and its line. Unknown keys are errors.
 */
import { formatCount, MAX_REPORTED_ISSUES, quoteClipped } from "@peloton/engine";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type YAMLMap } from "yaml";
import type { z } from "zod";
import { textProblem, toValues, treeProblem, YAML_PARSE_OPTIONS } from "./yaml-bounds.ts";
import { arrayElement, objectShape, recordValue } from "./zod-walk.ts";

export interface ConfigIssue {
  /** Dotted path in the file's own spelling, e.g. `resources[0].reservation`. */
  field: string;
  message: string;
  line?: number;
  column?: number;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly issues: ConfigIssue[];
  /** At most MAX_REPORTED_ISSUES problems are kept; the last one counts the rest. */
  constructor(issues: ConfigIssue[]) {
    const kept = capIssues(issues);
    super(kept.map(formatIssue).join("; "));
    this.issues = kept;
  }
}

/** The first MAX_REPORTED_ISSUES problems and one more saying how many were left out. */
export function capIssues<T extends ConfigIssue>(issues: T[]): (T | ConfigIssue)[] {
  if (issues.length <= MAX_REPORTED_ISSUES) return issues;
  const rest = issues.length - MAX_REPORTED_ISSUES;
  return [
    ...issues.slice(0, MAX_REPORTED_ISSUES),
    { field: "", message: `and ${formatCount(rest)} more problem${rest === 1 ? "" : "s"}` },
  ];
}

export function formatIssue(i: ConfigIssue): string {
  return `${i.field || "(file)"}${i.line ? ` (line ${i.line})` : ""}: ${i.message}`;
}

type Path = (string | number)[];

function pathToString(path: Path): string {
  return path.reduce<string>(
    (acc, p) => (typeof p === "number" ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p),
    "",
  );
}

/**
 * Renames keys to the schema's spelling (case-insensitive match), drops nulls,
 * and records for every canonical path the path as written, so that errors
 * found later point at the user's own text.
 */
function canonicalise(
  value: unknown,
  schema: z.ZodType | null,
  path: Path,
  written: Path,
  paths: Map<string, Path>,
  issues: ConfigIssue[],
): unknown {
  paths.set(pathToString(path), written);
  if (Array.isArray(value)) {
    const el = schema ? arrayElement(schema) : null;
    return value.map((v, i) => canonicalise(v, el, [...path, i], [...written, i], paths, issues));
  }
  if (value === null || typeof value !== "object") return value;
  const shape = schema ? objectShape(schema) : null;
  const recordOf = schema ? recordValue(schema) : null;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null) continue; // `changelog: null` means "not set"
    if (recordOf) {
      out[key] = canonicalise(v, recordOf, [...path, key], [...written, key], paths, issues);
      continue;
    }
    const canonical = shape
      ? Object.keys(shape).find((k) => k.toLowerCase() === key.toLowerCase())
      : undefined;
    if (shape && !canonical) {
      issues.push({
        field: pathToString([...written, key]),
        message: `unknown field ${quoteClipped(key)}`,
      });
      continue;
    }
    const name = canonical ?? key;
    if (name in out) {
      issues.push({
        field: pathToString([...written, key]),
        message: `${quoteClipped(key)} is given twice (as ${name})`,
      });
      continue;
    }
    out[name] = canonicalise(
      v,
      shape?.[name] ?? null,
      [...path, name],
      [...written, key],
      paths,
      issues,
    );
  }
  return out;
}

/**
 * Finds where a path is written. A mapping's keys are indexed once, on first
 * use, so that placing every problem of a file with many keys stays linear
 * (searching the items for each problem made 40,000 problems take minutes).
 */
function locator(doc: ReturnType<typeof parseDocument>, lc: LineCounter) {
  const indexes = new WeakMap<YAMLMap, Map<string, unknown>>();
  const child = (map: YAMLMap, key: string): unknown => {
    let index = indexes.get(map);
    if (!index) {
      index = new Map();
      for (const it of map.items)
        if (isScalar(it.key) && !index.has(String(it.key.value)))
          index.set(String(it.key.value), it.value);
      indexes.set(map, index);
    }
    return index.get(key);
  };
  return (written: Path) => locate(doc, lc, written, child);
}

function locate(
  doc: ReturnType<typeof parseDocument>,
  lc: LineCounter,
  written: Path,
  child: (map: YAMLMap, key: string) => unknown,
): { line?: number; column?: number } {
  let node: unknown = doc.contents;
  for (const p of written) {
    if (isMap(node)) node = child(node as YAMLMap, String(p)) ?? node;
    else if (isSeq(node) && typeof p === "number") node = node.items[p] ?? node;
    else break;
  }
  const range = (node as Node | undefined)?.range;
  if (!range) return {};
  const pos = lc.linePos(range[0]);
  return { line: pos.line, column: pos.col };
}

/** Parses `text` as Peloton YAML and validates it with `schema`; throws ConfigError listing every problem. */
export function parsePelotonYaml<S extends z.ZodType>(text: string, schema: S): z.output<S> {
  return decodePelotonYaml(text, schema).value;
}

/** A decoded file, and where a field (canonical spelling, `a.b[0].c`) is written in it. */
export interface DecodedYaml<T> {
  value: T;
  /** The field as the file spells it (`defaultconfig.resource.cpulimit`) and where it is. */
  positionOf(field: string): { field: string; line?: number; column?: number };
}

/**
 * `parsePelotonYaml`, keeping the file's positions, so that problems found
 * later (rules between fields) can point at the user's own text too.
 */
export function decodePelotonYaml<S extends z.ZodType>(
  text: string,
  schema: S,
): DecodedYaml<z.output<S>> {
  const tooMuch = textProblem(text);
  if (tooMuch) throw new ConfigError([{ field: "", message: tooMuch }]);
  const lc = new LineCounter();
  const doc = parseDocument(text, { ...YAML_PARSE_OPTIONS, lineCounter: lc });
  if (doc.errors.length) {
    throw new ConfigError(
      doc.errors.slice(0, MAX_REPORTED_ISSUES + 1).map((e) => {
        // Without prettyErrors the error has only its offset: the line counter places it.
        const pos = e.linePos?.[0] ?? lc.linePos(e.pos[0]);
        return {
          field: "",
          message: e.message.split("\n")[0] ?? "invalid YAML",
          ...(pos ? { line: pos.line, column: pos.col } : {}),
        };
      }),
    );
  }
  const treeTooBig = treeProblem(doc);
  if (treeTooBig) {
    const pos = treeTooBig.offset !== undefined ? lc.linePos(treeTooBig.offset) : undefined;
    throw new ConfigError([
      {
        field: "",
        message: treeTooBig.message,
        ...(pos ? { line: pos.line, column: pos.col } : {}),
      },
    ]);
  }
  const values = toValues(doc);
  if (!values.ok) throw new ConfigError([{ field: "", message: values.message }]);
  const raw = values.value;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new ConfigError([
      { field: "", message: "expected a mapping of fields at the top level" },
    ]);
  }
  const at = locator(doc, lc);
  const paths = new Map<string, Path>();
  const issues: ConfigIssue[] = [];
  const value = canonicalise(raw, schema, [], [], paths, issues);
  const result = schema.safeParse(value);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const canonical = issue.path.filter((p): p is string | number => typeof p !== "symbol");
      // Walk up to the nearest path the file actually has (a missing field points at its parent).
      let written: Path | undefined;
      for (let n = canonical.length; n >= 0 && !written; n--) {
        const w = paths.get(pathToString(canonical.slice(0, n)));
        if (w) written = [...w, ...canonical.slice(n)];
      }
      const field = pathToString(written ?? canonical);
      issues.push({ field, message: issue.message, ...at(written ?? canonical) });
    }
  }
  for (const i of issues) if (i.line === undefined) Object.assign(i, at(fieldToPath(i.field)));
  // The broadest problems first (a list with too many entries before each entry's own),
  // so that the 50 an answer lists start with them; otherwise in the file's order.
  const depth = (i: ConfigIssue) => (i.field.match(/[.[]/g)?.length ?? 0) + (i.field ? 1 : 0);
  issues.sort((a, b) => depth(a) - depth(b));
  if (issues.length) throw new ConfigError(issues);
  return {
    value: (result as { data: z.output<S> }).data,
    positionOf: (field) => {
      const canonical = fieldToPath(field);
      for (let n = canonical.length; n >= 0; n--) {
        const w = paths.get(pathToString(canonical.slice(0, n)));
        if (!w) continue;
        const written = [...w, ...canonical.slice(n)];
        return { field: pathToString(written), ...at(written) };
      }
      return { field };
    },
  };
}

function fieldToPath(field: string): Path {
  const out: Path = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g))
    out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}
