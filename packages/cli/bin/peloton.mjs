#!/usr/bin/env node
// The CLI ships built (scripts/build.mjs → dist/peloton.mjs): plain Node, no
// TypeScript loader at run time. `npm install` builds it; after changing the
// sources, `npm run build -w packages/cli`.
import { existsSync } from "node:fs";

const built = new URL("../dist/peloton.mjs", import.meta.url);
if (!existsSync(built)) {
  console.error("peloton: the CLI is not built: run `npm run build -w packages/cli`");
  process.exit(1);
}
await import(built.href);
