/**
 * `npm run lint:architecture`: the import check over the whole tree and the
 * workspace packages' package.json dependencies. Prints each violation and
 * each exception nothing needs any more; exits non-zero if there is either.
 */
import { resolve } from "node:path";
import { checkImports } from "./check.ts";
import { declaredDependencies, sourceFiles } from "./files.ts";

const root = resolve(import.meta.dirname, "../..");
const files = sourceFiles(root);
const { violations, stale } = checkImports(files, undefined, declaredDependencies(root));

for (const v of violations) console.error(`${v.file}: "${v.specifier}" [${v.rule}] ${v.message}`);
for (const e of stale) {
  console.error(
    `stale exception in scripts/architecture/rules.ts (nothing needs it any more; delete it): ` +
      `[${e.rule}] ${e.from} -> ${e.to} (${e.until.split(":")[0]})`,
  );
}
if (violations.length || stale.length) {
  console.error(
    `architecture: ${violations.length} import(s) against docs/architecture.md, ` +
      `${stale.length} stale exception(s)`,
  );
  process.exit(1);
}
console.log(`architecture: ${files.length} files, every import follows docs/architecture.md`);
