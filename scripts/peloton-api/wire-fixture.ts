/**
 * Writes packages/peloton-api/test/fixtures/peloton-wire.json: the wire
 * shape (field names and numbers, enum values, methods; no comments, no
 * text of the files) of Peloton's v0 and v1alpha API and of the Mesos
 * messages they use, read from a checkout of uber/peloton. Run once, and
 * again only to follow a newer Peloton:
 *
 *   npx tsx scripts/peloton-api/wire-fixture.ts <peloton git dir> [commit]
 *
 * It copies the commit's protobuf/ folder to a temporary directory, compiles
 * it with buf (from the npm package @bufbuild/buf) into a descriptor set,
 * and keeps its shape (packages/peloton-api/src/wire/shape.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  type FileDescriptorJson,
  typesReachedFrom,
  wireShape,
} from "@peloton/peloton-api/wire-shape";

const repoRoot = resolve(import.meta.dirname, "../..");
const [gitDir, commit = "HEAD"] = process.argv.slice(2);
if (!gitDir) {
  console.error("usage: tsx scripts/peloton-api/wire-fixture.ts <peloton git dir> [commit]");
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), "peloton-protos-"));
try {
  const sha = execFileSync("git", ["-C", gitDir, "rev-parse", commit], { encoding: "utf8" }).trim();
  const archive = execFileSync("git", ["-C", gitDir, "archive", sha, "protobuf"], {
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync("tar", ["-x", "-C", work], { input: archive });
  const protos = join(work, "protobuf");
  writeFileSync(join(protos, "buf.yaml"), "version: v2\n");
  const image = join(work, "image.json");
  execFileSync(
    join(repoRoot, "node_modules/.bin/buf"),
    ["build", "--path", "peloton/api/v0", "--path", "peloton/api/v1alpha", "-o", image],
    { cwd: protos, stdio: "inherit" },
  );
  const files = (JSON.parse(readFileSync(image, "utf8")) as { file: FileDescriptorJson[] }).file;
  const everything = wireShape(files);
  // Peloton's API whole, plus the Mesos messages (and their own) it uses.
  const api = Object.keys({ ...everything.messages, ...everything.enums }).filter((n) =>
    n.startsWith(".peloton.api."),
  );
  const reached = typesReachedFrom(everything, api);
  const shape = wireShape(files, (name) => reached.has(name));
  const out = join(repoRoot, "packages/peloton-api/test/fixtures/peloton-wire.json");
  writeFileSync(out, `${JSON.stringify({ source: `uber/peloton@${sha}`, ...shape }, null, 1)}\n`);
  console.log(
    `wrote ${out}: ${Object.keys(shape.messages).length} messages, ${Object.keys(shape.enums).length} enums, ${Object.keys(shape.services).length} services`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
