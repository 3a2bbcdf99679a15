/**
 * What the CLI prints for the API's refusals: the sentence, never a parser's
 * words or a database's text (issue 14: two errors printed raw Prisma text).
 */
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { describeError } from "../src/errors.ts";

const URL = "http://localhost:3000";

/** A client error as the tRPC link builds it from the API's error envelope. */
function answered(message: string, data: Record<string, unknown>) {
  return TRPCClientError.from({ error: { message, code: -32600, data } });
}

describe("describeError", () => {
  it("prints the edge's refusal (no field: the limit names itself)", () => {
    const message = "a request body has at most 2,097,152 bytes (got 10,485,790)";
    const err = answered(message, {
      code: "PAYLOAD_TOO_LARGE",
      httpStatus: 413,
      issues: [{ field: null, code: "BODY_TOO_LARGE", message }],
      requestId: "r",
    });
    expect(describeError(err, URL)).toBe(message);
  });

  it("prints a field's refusal with its field", () => {
    const err = answered("description: at most 4,096 characters (got 1,048,576)", {
      code: "BAD_REQUEST",
      issues: [
        {
          field: "description",
          code: "too_big",
          message: "at most 4,096 characters (got 1,048,576)",
        },
      ],
    });
    expect(describeError(err, URL)).toBe("description: at most 4,096 characters (got 1,048,576)");
  });

  it("prints an outage and a server fault as the API words them, with the request id", () => {
    const outage = answered("the database is unreachable; try again shortly", {
      code: "SERVICE_UNAVAILABLE",
      issues: [
        {
          field: null,
          code: "DATABASE_UNAVAILABLE",
          message: "the database is unreachable; try again shortly",
        },
      ],
    });
    expect(describeError(outage, URL)).toBe("the database is unreachable; try again shortly");
    const bug = answered("internal error (request 42); the details are in the server log", {
      code: "INTERNAL_SERVER_ERROR",
      issues: null,
      requestId: "42",
    });
    expect(describeError(bug, URL)).toBe(
      "internal error (request 42); the details are in the server log",
    );
  });

  it("says so in one sentence when the answer is not the API's at all", () => {
    const err = new TRPCClientError(`Unexpected token '<', "<html>" is not valid JSON`, {
      meta: { response: { status: 502 } },
    });
    expect(describeError(err, URL)).toBe(
      "the Peloton API at http://localhost:3000 gave an answer that is not one of its own (HTTP 502); try again, or see the server's log",
    );
  });
});
