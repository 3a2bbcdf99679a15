import { StartupError } from "@peloton/storage/bootstrap";
import { describe, expect, it } from "vitest";
import { describeFailure } from "../server/failure.ts";

// The launcher's one line for a failed start: never empty, never a stack.
describe("describeFailure", () => {
  it("a StartupError is its own sentence", () => {
    expect(describeFailure(new StartupError('PORT must be a port number, not "x"'))).toBe(
      'PORT must be a port number, not "x"',
    );
  });

  it("an error without a message still names its code and cause (the two-replica demo seeding race)", () => {
    const adapter = Object.assign(new Error(""), {
      cause: {
        kind: "UniqueConstraintViolation",
        originalCode: "23505",
        originalMessage: 'duplicate key value violates unique constraint "resource_pools_path_key"',
      },
    });
    const line = describeFailure(adapter);
    expect(line).toMatch(/^start-up failed: duplicate key value violates unique constraint/);
    expect(line).toContain("code 23505");
    expect(line).toContain("PELOTON_DEBUG=1");
    expect(line).not.toContain("\n");
  });

  it("Prisma's message: the cause, not its empty first line or the 'Invalid … invocation:' lead-in", () => {
    const prisma = Object.assign(
      new Error(
        "\nInvalid `prisma.resourcePool.create()` invocation:\n\n\nUnique constraint failed on the fields: (`path`)",
      ),
      { code: "P2002" },
    );
    expect(describeFailure(prisma)).toMatch(
      /^start-up failed: Unique constraint failed on the fields: \(`path`\) \(code P2002\);/,
    );
  });

  it("a pg error with only a code and a constraint", () => {
    const pg = Object.assign(new Error(""), { code: "23505", constraint: "pools_path_key" });
    expect(describeFailure(pg)).toContain("(code 23505, constraint pools_path_key)");
  });

  it("an error whose cause says why", () => {
    const err = new Error("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5050"), {
        code: "ECONNREFUSED",
      }),
    });
    expect(describeFailure(err)).toContain(
      "fetch failed ← connect ECONNREFUSED 127.0.0.1:5050 (code ECONNREFUSED)",
    );
  });

  it("after start-up the line says the launcher stopped, not that start-up failed", () => {
    expect(describeFailure(new Error("socket hang up"), "running")).toMatch(
      /^stopped after an unexpected error: socket hang up;/,
    );
  });

  it("a thrown non-error", () => {
    expect(describeFailure("boom")).toMatch(/^start-up failed: boom;/);
    expect(describeFailure(undefined)).toMatch(/^start-up failed: undefined;/);
  });
});
