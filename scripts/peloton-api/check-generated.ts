/**
 * `npm run -s check:generated`: regenerates packages/peloton-api's TypeScript
 * from its protos into a temporary directory (buf + protoc-gen-es, the
 * versions package-lock.json pins) and fails when a file differs from the
 * checked-in src/generated/: edit the .proto, then `npm run generate -w
 * packages/peloton-api`, never the generated file. A step of `npm test`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";

const repoRoot = resolve(import.meta.dirname, "../..");
const pkg = join(repoRoot, "packages/peloton-api");
const bin = join(repoRoot, "node_modules/.bin");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

const out = mkdtempSync(join(tmpdir(), "peloton-api-gen-"));
try {
  execFileSync(join(bin, "buf"), ["generate", "-o", out], {
    cwd: pkg,
    stdio: "inherit",
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
  });
  const fresh = join(out, "src/generated");
  const kept = join(pkg, "src/generated");
  const names = new Set(
    [...files(fresh), ...files(kept)].map((f) => relative(f.startsWith(fresh) ? fresh : kept, f)),
  );
  const stale = [...names].filter((name) => {
    const read = (dir: string) => {
      try {
        return readFileSync(join(dir, name), "utf8");
      } catch {
        return null;
      }
    };
    return read(fresh) !== read(kept);
  });
  if (stale.length) {
    console.error(
      `packages/peloton-api/src/generated does not match the protos (${stale.join(", ")}): run \`npm run generate -w packages/peloton-api\``,
    );
    process.exit(1);
  }
  console.log(`packages/peloton-api/src/generated matches its protos (${names.size} files)`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
