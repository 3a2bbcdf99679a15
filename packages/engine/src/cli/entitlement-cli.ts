/**
 * `npm run -s entitlement -- input.json [--explain]`: the entitlement data
 * contract (peloton-semantics.md, "The data contract"). Prints the result as
 * one JSON line; with `--explain` it adds an `explanation` object (path → kind
 * → sentence). Invalid input exits 2 with one line naming the problem.
 *
 * The edge of the engine: the only file here that does I/O.
 */
import { readFileSync } from "node:fs";
import { calculateEntitlement } from "../entitlement/calculate.ts";
import { describePoolListError } from "../entitlement/compile.ts";
import { parseEntitlementContract } from "../entitlement/contract.ts";
import { describeExplanation } from "../entitlement/describe.ts";
import { explanationOf, toEntitlementJson } from "../entitlement/result.ts";
import { RESOURCE_KINDS } from "../resources/kinds.ts";

function fail(message: string): never {
  process.stderr.write(`entitlement: ${message}\n`);
  process.exit(2);
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    fail(
      code === "ENOENT" ? `${file}: no such file` : `${file}: cannot read (${code ?? String(err)})`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    fail(`${file}: malformed JSON (${(err as Error).message})`);
  }
}

function main(argv: readonly string[]): void {
  const explain = argv.includes("--explain");
  const files = argv.filter((a) => a !== "--explain");
  if (files.length !== 1) fail("usage: entitlement <input.json> [--explain]");
  const file = files[0]!;
  const parsed = parseEntitlementContract(readJson(file));
  if (!parsed.ok) fail(`${file}: ${parsed.message}`);
  const outcome = calculateEntitlement(parsed.input, { explain });
  if (!outcome.ok) fail(`${file}: ${describePoolListError(outcome.error)}`);
  const out: Record<string, unknown> = { ...toEntitlementJson(outcome.result) };
  if (explain) {
    const sentences: Record<string, Record<string, string>> = {};
    for (const path of outcome.result.pools.paths) {
      const steps = explanationOf(outcome.result, path);
      if (!steps) continue;
      sentences[path] = Object.fromEntries(
        RESOURCE_KINDS.map((k) => [k, describeExplanation(steps[k], k)]),
      );
    }
    out.explanation = sentences;
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main(process.argv.slice(2));
