/**
 * The data contract end to end: `npx tsx packages/engine/src/cli/entitlement-cli.ts`
 * on the JSON files in test/fixtures, compared with the in-process calculation
 * and with the document's numbers.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import {
  calculateEntitlement,
  parseEntitlementContract,
  type Resources,
  toEntitlementJson,
} from "../src/index.ts";
import { trunc2 } from "./support/builders.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
const fixture = (name: string) => join(here, "fixtures", name);

interface Run {
  code: number | null;
  stdout: string;
  /** stderr without npm's own warnings about the environment. */
  stderr: string[];
}

function runCli(...args: string[]): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn("npx", ["tsx", "packages/engine/src/cli/entitlement-cli.ts", ...args], {
      cwd: repo,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", fail);
    child.on("close", (code) =>
      done({
        code,
        stdout,
        stderr: stderr.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("npm warn")),
      }),
    );
  });
}

type Json = Record<string, Record<string, Resources>>;

function inProcess(file: string): Json {
  const parsed = parseEntitlementContract(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.ok) throw new Error(parsed.message);
  const outcome = calculateEntitlement(parsed.input);
  if (!outcome.ok) throw new Error(outcome.error.code);
  return JSON.parse(JSON.stringify(toEntitlementJson(outcome.result)));
}

const runs: Record<string, Run> = {};
const invalid = {
  "invalid-unknown-kind.json": /resources\[0\]\.kind: unknown kind "cpus"/,
  "invalid-negative.json": /resources\[0\]\.reservation: negative number -1/,
  "invalid-child-before-parent.json": /\/a\/x is listed before its parent \/a/,
  "invalid-malformed.json": /malformed JSON/,
  "no-such-file.json": /no such file/,
};

beforeAll(async () => {
  const names = [
    "worked-example.json",
    "contract-example.json",
    "peloton-slack.json",
    ...Object.keys(invalid),
  ];
  const results = await Promise.all(names.map((n) => runCli(fixture(n))));
  names.forEach((n, i) => {
    runs[n] = results[i]!;
  });
  runs.explain = await runCli(fixture("worked-example.json"), "--explain");
}, 120_000);

describe("entitlement CLI", () => {
  it("the worked example: the document's numbers, truncated to 2 decimals", () => {
    const run = runs["worked-example.json"]!;
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as Json;
    const e = out.entitlement!;
    // /a: 10 + 10 + 80/3; /a/x: 10 + 10 + (46.67 − 20)/2.
    expect(trunc2(e["/a"]!.cpu)).toBe(46.66);
    expect(trunc2(e["/b"]!.cpu)).toBe(26.66);
    expect(trunc2(e["/c"]!.cpu)).toBe(26.66);
    expect(trunc2(e["/a/x"]!.cpu)).toBe(33.33);
    expect(trunc2(e["/a/y"]!.cpu)).toBe(13.33);
    expect(trunc2(e["/a/x"]!.memory)).toBe(333.33);
    expect(e["/a/x"]!.disk).toBe(1000);
    expect(e["/a/y"]!.disk).toBe(0);
    expect(Object.values(e).map((r) => r.gpu)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(e["/"]).toEqual({ cpu: 100, gpu: 0, memory: 1000, disk: 6000 });
  });

  it("prints exactly what the engine computes", () => {
    for (const name of ["worked-example.json", "contract-example.json", "peloton-slack.json"]) {
      expect(JSON.parse(runs[name]!.stdout), name).toEqual(inProcess(fixture(name)));
    }
  });

  it("the contract's shape: entitlement with the root, the others without, every kind", () => {
    const out = JSON.parse(runs["contract-example.json"]!.stdout) as Json;
    expect(Object.keys(out)).toEqual(["entitlement", "nonSlackEntitlement", "slackEntitlement"]);
    expect(Object.keys(out.entitlement!)).toEqual(["/", "/respool1", "/respool1/respool11"]);
    expect(Object.keys(out.nonSlackEntitlement!)).toEqual(["/respool1", "/respool1/respool11"]);
    expect(Object.keys(out.slackEntitlement!)).toEqual(["/respool1", "/respool1/respool11"]);
    for (const r of Object.values(out.entitlement!))
      expect(Object.keys(r)).toEqual(["cpu", "gpu", "memory", "disk"]);
    // Unlisted kinds have limit 0: /respool1 gets no memory though the cluster has 1000.
    expect(out.entitlement!["/respool1"]).toEqual({ cpu: 100, gpu: 0, memory: 0, disk: 0 });
  });

  it("Peloton's slack case through the CLI", () => {
    const out = JSON.parse(runs["peloton-slack.json"]!.stdout) as Json;
    const slack = out.slackEntitlement!;
    expect(slack["/respool1/respool11"]!.cpu).toBe(22.5);
    expect(slack["/respool2/respool21"]).toMatchObject({ cpu: 27.5, memory: 15, disk: 75 });
    expect(slack["/respool3"]!.cpu).toBe(25);
  });

  it("--explain adds one sentence per pool and kind", () => {
    const run = runs.explain!;
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { explanation: Record<string, Record<string, string>> };
    expect(out.explanation["/a/x"]!.cpu).toBe(
      "wants 20 cpu; reserved 10 cpu; borrowed 10 of the 36.67 left at /a by share 1 of 1; " +
        "capped by demand 20; got 13.33 of the 26.67 nobody asked for at /a by share 1 of 2",
    );
  });

  it.each(Object.entries(invalid))("%s exits 2 with one line naming the problem", (name, says) => {
    const run = runs[name]!;
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).toMatch(says);
  });
});
