/**
 * The YAML decoder's bounds, each refusal a sentence with its line where it
 * has one, and each found in one pass (no quadratic placing of problems).
 */
import { jobConfigSchema } from "@peloton/engine";
import { describe, expect, it } from "vitest";
import { ConfigError, checkJobYaml, decodePelotonYaml } from "../src/config/index.ts";

function refusal(text: string) {
  try {
    decodePelotonYaml(text, jobConfigSchema);
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("YAML bounds", () => {
  it.each([
    [
      "an alias inside its own anchor",
      "name: &a [*a]\n",
      "the alias *a is inside its own anchor",
      1,
    ],
    [
      "an alias to no anchor",
      "name: *nope\n",
      "the alias *nope names no anchor set before it",
      undefined,
    ],
    ["a key given twice", "name: a\ntype: 0\nname: b\n", 'the key "name" is given twice', 3],
    [
      "flow nesting past 64",
      `name: ${"[".repeat(65)}${"]".repeat(65)}\n`,
      "nests deeper than 64 levels",
      undefined,
    ],
    [
      "block nesting past 64",
      `${Array.from({ length: 70 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")} x\n`,
      "nests deeper than 64 levels",
      undefined,
    ],
  ])("%s", (_name, text, says, line) => {
    const [issue] = refusal(text);
    expect(issue!.message).toContain(says);
    expect(issue!.line).toBe(line);
  });

  it("an instanceconfig of more entries than instances is refused on its count, that problem first", () => {
    let text = "name: j\ninstancecount: 10\ninstanceconfig:\n";
    for (let i = 0; i < 300; i++) text += `  ${i}: {bogus: 1}\n`;
    const issues = refusal(text);
    expect(issues[0]).toMatchObject({
      field: "instanceconfig",
      message: "at most 10 entries, one per instance (instanceCount 10) (got 300)",
    });
  });

  it("lists at most 50 problems and counts the rest", () => {
    let text = "name: j\ninstancecount: 1000\ninstanceconfig:\n";
    for (let i = 0; i < 500; i++) text += `  ${i}: {bogus: 1}\n`;
    const issues = refusal(text);
    expect(issues).toHaveLength(51);
    expect(issues[50]!.message).toBe("and 450 more problems");
  });

  it("keeps a file that is fine", () => {
    expect(
      checkJobYaml(
        "name: j\ninstancecount: 2\ndefaultconfig:\n  resource: {cpulimit: 1, memlimitmb: 8}\n  command: {value: x}\n",
      ).ok,
    ).toBe(true);
  });
});
