import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkImports,
  manifestViolations,
  reachable,
  type SourceFile,
  violationsOf,
} from "../architecture/check.ts";
import { declaredDependencies, sourceFiles } from "../architecture/files.ts";
import { unplacedFolders } from "../architecture/folders.ts";
import { importSpecifiers } from "../architecture/imports.ts";
import type { Exception } from "../architecture/rules.ts";

const root = resolve(import.meta.dirname, "../..");
const rules = (file: string, specifier: string) => violationsOf(file, specifier).map((v) => v.rule);

describe("importSpecifiers", () => {
  it("finds every form of import and re-export", () => {
    const source = [
      'import a from "a";',
      'import type { B } from "b";',
      "import {",
      "  c,",
      "  type C,",
      '} from "c";',
      'import * as d from "d";',
      'import "e";',
      'export * from "f";',
      'export { g } from "g";',
      'export type { H } from "h";',
      'const i = await import("i");',
      'type J = typeof import("j");',
      'const k = require("k");',
    ].join("\n");
    expect(importSpecifiers(source)).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
      "f",
      "g",
      "h",
      "i",
      "j",
      "k",
    ]);
  });

  it("ignores imports quoted in block comments and words in strings", () => {
    const source = [
      "/**",
      ' * import x from "in-a-comment";',
      ' * await import("also-in-a-comment")',
      " */",
      'export const field = { kind: "from" };',
      'export type Glob = "src/**";',
      'import { real } from "real";',
    ].join("\n");
    expect(importSpecifiers(source)).toEqual(["real"]);
  });
});

describe("the arrows", () => {
  it("lets each package import what the architecture allows", () => {
    expect(rules("packages/scheduler/src/a.ts", "@peloton/storage")).toEqual([]);
    expect(rules("packages/scheduler/src/a.ts", "@peloton/mesos")).toEqual([]);
    expect(rules("packages/api/src/a.ts", "@peloton/scheduler")).toEqual([]);
    expect(rules("packages/cli/src/a.ts", "@peloton/api")).toEqual([]);
    expect(rules("apps/console/src/app/page.tsx", "@peloton/api")).toEqual([]);
    expect(rules("apps/console/server/start.ts", "@peloton/scheduler/boot")).toEqual([]);
    expect(rules("packages/api/src/a.ts", "@peloton/api/schemas")).toEqual([]);
    expect(rules("packages/engine/src/a.ts", "zod")).toEqual([]);
  });

  it("flags production imports against the direction", () => {
    expect(rules("packages/engine/src/a.ts", "@peloton/storage")).toEqual(["direction"]);
    expect(rules("packages/storage/src/a.ts", "@peloton/scheduler")).toEqual(["direction"]);
    expect(rules("packages/mesos/src/a.ts", "@peloton/scheduler")).toEqual(["direction"]);
    expect(rules("packages/scheduler/src/a.ts", "@peloton/api")).toEqual(["direction"]);
    expect(rules("packages/api/src/a.ts", "@peloton/mesos")).toEqual(["direction"]);
    expect(rules("packages/cli/src/a.ts", "@peloton/scheduler")).toEqual(["direction"]);
    expect(rules("packages/cli/src/a.ts", "@peloton/storage")).toEqual(["direction"]);
    expect(rules("apps/console/src/lib/a.ts", "@peloton/scheduler")).toEqual(["direction"]);
    expect(rules("apps/console/src/lib/a.ts", "@peloton/storage")).toEqual(["direction"]);
    expect(rules("packages/api/src/a.ts", "@peloton/console")).toEqual(["direction"]);
    expect(rules("packages/cli/bin/peloton.ts", "@peloton/scheduler")).toEqual(["direction"]);
  });

  it("lets tests assemble what their package reaches, never what is above it", () => {
    expect([...reachable("cli")].sort()).toEqual([
      "api",
      "engine",
      "mesos",
      "scheduler",
      "storage",
    ]);
    expect(rules("packages/cli/test/a.int.test.ts", "@peloton/scheduler")).toEqual([]);
    expect(rules("packages/storage/test/a.test.ts", "@peloton/scheduler")).toEqual([
      "test-direction",
    ]);
    expect(rules("packages/engine/bench/a.bench.ts", "@peloton/storage")).toEqual([
      "test-direction",
    ]);
    expect(rules("packages/api/test/a.test.ts", "@peloton/console")).toEqual(["test-direction"]);
  });

  it("flags relative paths into another package, naming the package to import", () => {
    const [v] = violationsOf("packages/api/test/a.test.ts", "../../storage/test/support/db.ts");
    expect(v?.rule).toBe("relative-into-package");
    expect(v?.message).toContain("@peloton/storage");
    expect(rules("apps/console/src/a.ts", "../../../packages/scheduler/src/index.ts")).toEqual([
      "relative-into-package",
      "direction",
    ]);
    expect(rules("e2e/a.spec.ts", "../packages/cli/src/api-client.ts")).toEqual([
      "relative-into-package",
    ]);
    expect(rules("packages/api/test/a.test.ts", "../src/index.ts")).toEqual([]);
    expect(rules("packages/api/bench/a.bench.ts", "../../../bench/harness.ts")).toEqual([]);
  });

  it("holds the shared test helpers' folders to the rules of the package each supports", () => {
    const ts = "@peloton/test-support";
    expect(rules("packages/cli/test/a.int.test.ts", `${ts}/api/context.ts`)).toEqual([]);
    expect(rules("packages/scheduler/test/a.test.ts", `${ts}/storage/manual-clock.ts`)).toEqual([]);
    expect(rules("e2e/support/serve.ts", `${ts}/storage/scratch-database.ts`)).toEqual([]);
    expect(rules("packages/storage/test/a.int.test.ts", `${ts}/scheduler/system.ts`)).toEqual([
      "test-direction",
    ]);
    expect(rules("packages/test-support/src/storage/a.ts", "@peloton/scheduler")).toEqual([
      "test-direction",
    ]);
    expect(rules("packages/test-support/src/api/a.ts", `${ts}/scheduler/system.ts`)).toEqual([]);
    expect(rules("packages/test-support/src/api/a.ts", "../scheduler/system.ts")).toEqual([
      "relative-into-package",
    ]);
    expect(rules("packages/test-support/src/storage/a.ts", "../../../storage/src/a.ts")).toEqual([
      "relative-into-package",
    ]);
    expect(rules("packages/storage/test/a.test.ts", "../../test-support/src/storage/a.ts")).toEqual(
      ["relative-into-package"],
    );
    expect(rules("packages/scheduler/src/a.ts", `${ts}/storage/manual-clock.ts`)).toEqual([
      "test-support-in-production",
    ]);
    expect(rules("packages/api/test/a.test.ts", `${ts}/console/a.ts`)).toEqual(["unknown-package"]);
    expect(rules("packages/api/test/a.test.ts", ts)).toEqual(["unknown-package"]);
  });

  it("keeps production code inside its package and to known package names", () => {
    expect(rules("packages/engine/src/a.ts", "../../../bench/harness.ts")).toEqual([
      "relative-out-of-package",
    ]);
    expect(rules("packages/api/src/a.ts", "@peloton/nope")).toEqual(["unknown-package"]);
  });
});

describe("the scheduler's folders", () => {
  const src = "packages/scheduler/src";

  it("lets a folder import its own files, the folders below it and outside packages", () => {
    expect(rules(`${src}/placement/a.ts`, "../taskwriter/task-writer.ts")).toEqual([]);
    expect(rules(`${src}/jobmgr/a.ts`, "../resmgr/respool/snapshot.ts")).toEqual([]);
    expect(rules(`${src}/assembly/a.ts`, "../jobmgr/job-manager.ts")).toEqual([]);
    expect(rules(`${src}/resmgr/respool/a.ts`, "../preemption/row.ts")).toEqual([]);
    expect(rules(`${src}/hostmgr/mesos/a.ts`, "../../common/logger.ts")).toEqual([]);
    expect(rules(`${src}/index.ts`, "./assembly/replica.ts")).toEqual([]);
    expect(rules(`${src}/resmgr/a.ts`, "@peloton/storage")).toEqual([]);
  });

  it("flags a folder importing a folder above it, or the package's index", () => {
    expect(rules(`${src}/placement/a.ts`, "../jobmgr/job-configs.ts")).toEqual([
      "folder-direction",
    ]);
    expect(rules(`${src}/resmgr/preemption/a.ts`, "../../jobmgr/goal-state.ts")).toEqual([
      "folder-direction",
    ]);
    expect(rules(`${src}/common/a.ts`, "../identity/actor.ts")).toEqual(["folder-direction"]);
    const [v] = violationsOf(`${src}/taskwriter/a.ts`, "../index.ts");
    expect(v?.rule).toBe("folder-direction");
    expect(v?.message).toContain("index");
    // The test folder is no folder of src/: it may import any of them.
    expect(rules("packages/scheduler/test/a.test.ts", "../src/assembly/replica.ts")).toEqual([]);
  });

  it("flags a folder the order does not name, once, and not a named one yet to exist", () => {
    const files = [
      { path: `${src}/runtime/loop.ts` },
      { path: `${src}/runtime/logger.ts` },
      { path: `${src}/jobmgr/a.ts` },
      { path: `${src}/index.ts` },
    ];
    expect(unplacedFolders(files)).toEqual([
      expect.objectContaining({
        rule: "folder-unplaced",
        file: `${src}/runtime/loop.ts`,
        specifier: `${src}/runtime/`,
      }),
    ]);
    // identity/ is in the order before any branch adds it; the tree without it passes.
    expect(files.some((f) => f.path.includes("/identity/"))).toBe(false);
    expect(unplacedFolders(files.slice(2))).toEqual([]);
    expect(unplacedFolders([{ path: "packages/api/src/runtime/a.ts" }])).toEqual([]);
  });

  it("fails the tree check on an unplaced folder", () => {
    const stray: SourceFile = { path: `${src}/runtime/loop.ts`, source: "export {};\n" };
    expect(checkImports([stray]).violations).toEqual([
      expect.objectContaining({ rule: "folder-unplaced" }),
    ]);
  });
});

describe("package.json", () => {
  it("must declare the workspace packages production code imports", () => {
    const declared = { cli: ["@peloton/api", "commander"] };
    expect(violationsOf("packages/cli/src/a.ts", "@peloton/api/schemas", declared)).toEqual([]);
    expect(violationsOf("packages/cli/src/a.ts", "@peloton/engine", declared)).toEqual([
      expect.objectContaining({ rule: "undeclared", specifier: "@peloton/engine" }),
    ]);
    // Tests assemble the system from the workspace; they are not held to the manifest.
    expect(violationsOf("packages/cli/test/a.int.test.ts", "@peloton/scheduler", declared)).toEqual(
      [],
    );
  });

  it("may not declare a dependency against the direction", () => {
    expect(
      manifestViolations({
        api: ["@peloton/engine", "@peloton/mesos", "zod"],
        console: ["@peloton/api", "@peloton/scheduler"],
      }),
    ).toEqual([
      expect.objectContaining({
        rule: "direction",
        file: "packages/api/package.json",
        specifier: "@peloton/mesos",
      }),
    ]);
  });
});

describe("checkImports", () => {
  const violating: SourceFile = {
    path: "packages/storage/src/repositories/sneaky.ts",
    source: 'import type { Scheduler } from "@peloton/scheduler";\nexport type S = Scheduler;\n',
  };

  it("passes exceptions that match and reports the ones nothing needs", () => {
    const used: Exception = {
      rule: "direction",
      from: /^packages\/storage\/src\/repositories\/sneaky\.ts$/,
      to: /^@peloton\/scheduler$/,
      until: "a test",
    };
    const unused: Exception = { ...used, from: /^packages\/storage\/src\/gone\.ts$/ };
    expect(checkImports([violating], [used, unused])).toEqual({ violations: [], stale: [unused] });
  });

  it("finds nothing against the direction in the tree", () => {
    const report = checkImports(sourceFiles(root), undefined, declaredDependencies(root));
    // On failure the list says which file imports what, and the rule it breaks.
    expect(report.violations.map((v) => `${v.file}: ${v.specifier} — ${v.message}`)).toEqual([]);
    expect(report.stale.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it("fails the tree when one file imports against the direction", () => {
    const report = checkImports([...sourceFiles(root), violating]);
    expect(report.violations).toEqual([
      expect.objectContaining({
        rule: "direction",
        file: violating.path,
        specifier: "@peloton/scheduler",
      }),
    ]);
  });
});
