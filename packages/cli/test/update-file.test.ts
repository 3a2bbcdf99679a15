/** What `respool update` reads from its file: the configuration and the version it was made from. */
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { CliError } from "../src/errors.ts";
import { readUpdateFile } from "../src/respool/update-file.ts";

const plain = `name: team
resources:
  - { kind: cpu, reservation: 2, limit: 4, share: 1 }
`;

/** One pool as `respool lookup --format yaml` prints it (a list, Go's lowercase keys). */
const lookedUp = (path: string, version: number) => ({
  id: { value: "7f3c" },
  config: {
    name: path.slice(1),
    owningteam: "team",
    resources: [{ kind: "cpu", reservation: 2, limit: 4, share: 1, type: 2 }],
    parent: { value: "root-id" },
    policy: 1,
    slacklimit: { maxpercent: 20 },
  },
  parent: { value: "root-id" },
  children: [],
  usages: [{ kind: "cpu", allocation: 0, slack: 0 }],
  path: { value: path },
  version,
});

describe("respool update's file", () => {
  it("a plain configuration names no version", () => {
    expect(readUpdateFile("f.yaml", plain, "/team")).toMatchObject({
      version: null,
      config: { name: "team" },
    });
  });

  it("a plain configuration with `version: N` (anywhere at the top)", () => {
    const read = readUpdateFile("f.yaml", `${plain}version: 3\n`, "/team");
    expect(read.version).toBe(3);
    expect(read.config.resources).toEqual([
      expect.objectContaining({ kind: "cpu", reservation: 2, limit: 4 }),
    ]);
  });

  it("the pool as lookup prints it: its config (without the parent id) and its version", () => {
    const read = readUpdateFile("f.yaml", stringify([lookedUp("/team", 5)]), "/team");
    expect(read.version).toBe(5);
    expect(read.config).toMatchObject({ name: "team", owningTeam: "team" });
    expect(read.config.parent).toBeUndefined();
  });

  it("the same in JSON (lookup --format json)", () => {
    const read = readUpdateFile("f.json", JSON.stringify([lookedUp("/team", 2)]), "/team");
    expect(read.version).toBe(2);
  });

  it("a dump: the entry of the pool being updated", () => {
    const text = stringify([lookedUp("/other", 9), lookedUp("/team", 4)]);
    expect(readUpdateFile("dump.yaml", text, "/team").version).toBe(4);
    expect(() => readUpdateFile("dump.yaml", text, "/nope")).toThrow(
      /a list of pools with no entry for \/nope/,
    );
  });

  it("refuses a version that is not a whole number ≥ 1", () => {
    for (const bad of ["0", "2.5", '"three"'])
      expect(() => readUpdateFile("f.yaml", `version: ${bad}\n${plain}`, "/team")).toThrow(
        CliError,
      );
  });
});
