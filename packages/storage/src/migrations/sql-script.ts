/**
 * Splits a migration script into statements at top-level semicolons.
 * adapter-pg's `executeScript` splits at every `;`, which cuts a function
 * body (`$$ … ; … $$`) in half; this splitter skips semicolons inside
 * quoted strings, quoted identifiers, dollar-quoted bodies and comments.
 */
export function splitSqlScript(script: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const n = script.length;
  while (i < n) {
    const c = script[i]!;
    if (c === "'" || c === '"') {
      i = script.indexOf(c, i + 1);
      // A doubled quote inside a string lands on the next quote: keep going.
      i = i === -1 ? n : i + 1;
    } else if (c === "-" && script[i + 1] === "-") {
      const end = script.indexOf("\n", i);
      i = end === -1 ? n : end + 1;
    } else if (c === "/" && script[i + 1] === "*") {
      const end = script.indexOf("*/", i + 2);
      i = end === -1 ? n : end + 2;
    } else if (c === "$") {
      const tag = /^\$[A-Za-z_]*\$/.exec(script.slice(i, i + 64))?.[0];
      if (tag === undefined) i++;
      else {
        const end = script.indexOf(tag, i + tag.length);
        i = end === -1 ? n : end + tag.length;
      }
    } else if (c === ";") {
      statements.push(script.slice(start, i));
      i++;
      start = i;
    } else i++;
  }
  statements.push(script.slice(start));
  return statements.map((s) => s.trim()).filter((s) => s.length > 0 && !isOnlyComments(s));
}

function isOnlyComments(statement: string): boolean {
  return (
    statement
      .replace(/--[^\n]*/g, "")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .trim() === ""
  );
}
