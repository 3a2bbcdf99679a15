/**
 * `checkJobYaml`, the check the console's editor runs as the user types: the
 * same decoder and engine rules as `jobs.create`, each problem at its field
 * (in the file's own spelling) and line.
 */
import { describe, expect, it } from "vitest";
import { checkJobYaml } from "../src/config/job-yaml.ts";
import { batchYaml } from "./support/jobs.ts";

describe("checkJobYaml", () => {
  const cases: {
    name: string;
    yaml: string;
    issues: { field: string; line?: number; code?: string; message?: RegExp }[];
  }[] = [
    { name: "a valid batch file (lowercase keys)", yaml: batchYaml(), issues: [] },
    {
      name: "an unknown field, at its line",
      yaml: batchYaml().replace("  priority: 5", "  priority: 5\n  colour: blue"),
      issues: [{ field: "sla.colour", line: 6, message: /unknown field "colour"/ }],
    },
    {
      name: "a negative cpuLimit (an engine rule), in the file's spelling",
      yaml: batchYaml({ cpu: -1 }),
      issues: [{ field: "defaultconfig.resource.cpulimit", line: 9, code: "NEGATIVE_RESOURCE" }],
    },
    {
      name: "broken YAML, at its line",
      yaml: "name: x\ninstancecount: [1,\n",
      issues: [{ field: "", line: 3 }],
    },
    {
      name: "a batch job without instances",
      yaml: batchYaml({ instances: 0 }),
      issues: [{ field: "instancecount", line: 3, code: "BATCH_WITHOUT_INSTANCES" }],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const result = checkJobYaml(c.yaml);
      if (c.issues.length === 0) {
        expect(result).toMatchObject({ ok: true, config: { name: "hello" } });
        return;
      }
      expect(result.ok).toBe(false);
      const issues = result.ok ? [] : result.issues;
      expect(issues).toHaveLength(c.issues.length);
      c.issues.forEach((want, i) => {
        const got = issues[i]!;
        expect(got.field).toBe(want.field);
        if (want.line !== undefined) expect(got.line).toBe(want.line);
        if (want.code) expect(got.code).toBe(want.code);
        if (want.message) expect(got.message).toMatch(want.message);
      });
    });
});
