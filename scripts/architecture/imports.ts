/**
 * The module specifiers a TypeScript/JavaScript file imports, found with
 * regular expressions rather than a parser: TypeScript 7 ships no JavaScript
 * compiler API (and so dependency-cruiser cannot read `.ts` here), and the
 * shapes below are all the tree uses once biome has formatted it: static
 * imports and re-exports start a line, dynamic `import("…")`, `typeof
 * import("…")` and `require("…")` may appear anywhere.
 */

// `import x from "m"`, `import type { X } from "m"`, `export * from "m"`,
// `export { a } from "m"`: the clause before `from` holds no quote and no
// semicolon, so the match cannot run on into the next statement.
const STATIC = /^[ \t]*(?:import|export)\b[^;'"`]*?[\s}*]from\s*(["'])([^"'\n]+)\1/gm;
// `import "m"` (side effects only).
const BARE = /^[ \t]*import\s*(["'])([^"'\n]+)\1/gm;
// `import("m")`, `typeof import("m")`, `require("m")`.
const CALL = /(?<![\w$.])(?:import|require)\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g;

/** Every specifier the source imports or re-exports, in order of appearance, without repeats. */
export function importSpecifiers(source: string): string[] {
  const code = withoutBlockComments(source);
  const found: { at: number; specifier: string }[] = [];
  for (const pattern of [STATIC, BARE, CALL]) {
    for (const m of code.matchAll(pattern)) found.push({ at: m.index, specifier: m[2]! });
  }
  found.sort((a, b) => a.at - b.at);
  return [...new Set(found.map((f) => f.specifier))];
}

/**
 * Block comments that open a line blanked out (kept the same length, line
 * breaks kept), so a JSDoc example such as `import("m")` is not taken for an
 * import. Only those that open a line: a string such as "src/**" holds "/*"
 * too, and must not blank the code after it. Line
 * comments need no care: the patterns above anchor at a line's start or
 * require a call, and a `//` comment that quotes an import call is rare enough
 * to be fixed by rewording the comment when the check reports it.
 */
function withoutBlockComments(source: string): string {
  return source.replace(/^[ \t]*\/\*[\s\S]*?\*\//gm, (c) => c.replace(/[^\n]/g, " "));
}
