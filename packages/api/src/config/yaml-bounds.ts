/**
 * Bounds on the work a YAML document may cause, checked before it becomes
 * JavaScript values: its size, how deep it nests (the `yaml` parser recurses
 * per level: 100,000 nested `[` took 3 s and overflowed the stack), how many
 * keys it has (parsing costs ~30 µs a key; the package's own duplicate-key
 * check is quadratic, so ours replaces it), and how many aliases it expands
 * (an alias bomb). Each check is one pass over the text or the node tree, and
 * each refusal is a sentence naming the limit.
 */
import {
  formatCount,
  MAX_YAML_ALIASES,
  MAX_YAML_DEPTH,
  MAX_YAML_KEYS,
  MAX_YAML_LENGTH,
  quoteClipped,
} from "@peloton/engine";
import {
  CST,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  Lexer,
  type ParseOptions,
} from "yaml";

/** How every Peloton YAML document is parsed (duplicate keys: `treeProblem`). */
export const YAML_PARSE_OPTIONS = {
  prettyErrors: false,
  uniqueKeys: false,
} as const satisfies ParseOptions;
/** How it is turned into values. */
export const YAML_TO_JS_OPTIONS = { maxAliasCount: MAX_YAML_ALIASES } as const;

const nestingMessage = () => `the document nests deeper than ${formatCount(MAX_YAML_DEPTH)} levels`;
const keysMessage = (got: string) =>
  `a YAML document has at most ${formatCount(MAX_YAML_KEYS)} keys (got ${got})`;

function occurrences(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/**
 * The text's own bounds, before the parser sees it: size, flow nesting (`[[[…`)
 * and key count. Counting brackets and colons settles almost every file in
 * one cheap pass; only a file with many of them is lexed, to tell indicators
 * from the same characters inside text.
 */
export function textProblem(text: string): string | null {
  if (text.length > MAX_YAML_LENGTH)
    return `a YAML document has at most ${formatCount(MAX_YAML_LENGTH)} characters (got ${formatCount(text.length)})`;
  const colons = occurrences(text, ":");
  // Far more colons than keys allowed: no need to lex to tell which are indicators.
  if (colons > 2 * MAX_YAML_KEYS) return keysMessage(`about ${formatCount(colons)}`);
  if (occurrences(text, "[") + occurrences(text, "{") <= MAX_YAML_DEPTH && colons <= MAX_YAML_KEYS)
    return null;
  let depth = 0;
  let keys = 0;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (type === "flow-seq-start" || type === "flow-map-start") {
      if (++depth > MAX_YAML_DEPTH) return nestingMessage();
    } else if (type === "flow-seq-end" || type === "flow-map-end") depth--;
    else if (type === "map-value-ind" && ++keys > MAX_YAML_KEYS)
      return keysMessage(`more than ${formatCount(MAX_YAML_KEYS)}`);
  }
  return null;
}

/** A problem of the parsed tree, and where (an offset in the text) when it is one place. */
export interface TreeProblem {
  message: string;
  offset?: number;
}

/**
 * The parsed tree's bounds (block nesting, key count), duplicate keys, and
 * aliases inside their own anchor (`&a [*a]` is a value that contains
 * itself: it would recurse for ever) in one iterative pass: no recursion,
 * one Set per mapping, the anchors above each node carried down.
 */
export function treeProblem(doc: Document): TreeProblem | null {
  type Entry = { node: unknown; depth: number; anchors: readonly string[] };
  const stack: Entry[] = [{ node: doc.contents, depth: 1, anchors: [] }];
  let keys = 0;
  while (stack.length > 0) {
    const { node, depth, anchors: above } = stack.pop()!;
    if (isAlias(node)) {
      // Other expansions are bounded by maxAliasCount.
      if (above.includes(node.source))
        return {
          message: `the alias *${node.source.slice(0, 40)} is inside its own anchor: a value cannot contain itself`,
          ...(node.range ? { offset: node.range[0] } : {}),
        };
      continue;
    }
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > MAX_YAML_DEPTH) return { message: nestingMessage() };
    const anchors = node.anchor ? [...above, node.anchor] : above;
    const seen = isMap(node) ? new Set<unknown>() : null;
    for (const item of node.items) {
      if (!isPair(item)) {
        stack.push({ node: item, depth: depth + 1, anchors });
        continue;
      }
      if (++keys > MAX_YAML_KEYS)
        return { message: keysMessage(`more than ${formatCount(MAX_YAML_KEYS)}`) };
      if (seen && isScalar(item.key)) {
        const key = item.key.value;
        if (seen.has(key))
          return {
            message: `the key ${quoteClipped(String(key))} is given twice (map keys must be unique)`,
            ...(item.key.range ? { offset: item.key.range[0] } : {}),
          };
        seen.add(key);
      }
      stack.push(
        { node: item.key, depth: depth + 1, anchors },
        { node: item.value, depth: depth + 1, anchors },
      );
    }
  }
  return null;
}

/**
 * `doc.toJS` with the alias bound, its refusals as sentences: an alias to an
 * anchor that is not set (or set later), and an alias bomb.
 */
export function toValues(
  doc: Document,
): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: doc.toJS(YAML_TO_JS_OPTIONS) };
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    if (/Unresolved alias/i.test(err.message)) {
      const name = /: ([^\n]*)$/.exec(err.message)?.[1];
      return {
        ok: false,
        message: `the alias ${name ? `*${name.slice(0, 40)} ` : ""}names no anchor set before it`,
      };
    }
    if (/Excessive alias count/i.test(err.message))
      return {
        ok: false,
        message: `the document expands its aliases too many times (at most ${formatCount(MAX_YAML_ALIASES)} per alias): an alias bomb is refused`,
      };
    if (err instanceof RangeError) return { ok: false, message: nestingMessage() };
    throw err;
  }
}
