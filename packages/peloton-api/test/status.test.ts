/**
 * Our errors as gRPC and YARPC answers, and the YARPC procedure names:
 * the pure parts both transports share.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { IssuesError } from "@peloton/api";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { statusOf } from "../src/calls/status.ts";
import { pelotonRegistry } from "../src/services.ts";
import { updateCreateFields } from "../src/v0/updates.ts";
import { yarpcErrorResponse } from "../src/yarpc/errors.ts";

const issue = (code: TRPCError["code"], field: string | null, issueCode: string, message: string) =>
  new TRPCError({ code, message, cause: new IssuesError([{ field, code: issueCode, message }]) });

describe("statusOf", () => {
  it.each([
    ["BAD_REQUEST", Code.InvalidArgument],
    ["UNAUTHORIZED", Code.Unauthenticated],
    ["FORBIDDEN", Code.PermissionDenied],
    ["NOT_FOUND", Code.NotFound],
    ["CONFLICT", Code.Aborted],
    ["PRECONDITION_FAILED", Code.FailedPrecondition],
    ["SERVICE_UNAVAILABLE", Code.Unavailable],
  ] as const)("%s becomes gRPC code %i", (trpc, grpc) => {
    expect(statusOf(issue(trpc, "id", "X", "m")).code).toBe(grpc);
  });

  it("names the field with the request's prefix", () => {
    const error = statusOf(
      issue("BAD_REQUEST", "name", "INVALID_FIELD", "a job needs a name"),
      "config.",
    );
    expect(error.rawMessage).toBe("config.name: a job needs a name");
  });

  it.each([
    ["options.batchSize", "updateConfig.batchSize"],
    ["configVersion", "jobConfig.changeLog.version"],
    ["jobId", "jobId"],
    ["id", "jobId"],
    ["defaultConfig.command", "jobConfig.defaultConfig.command"],
  ])("renames the router's %s to CreateUpdate's %s", (ours, theirs) => {
    const error = statusOf(
      issue("BAD_REQUEST", ours, "X", "wrong"),
      updateCreateFields("jobId", "jobConfig"),
    );
    expect(error.rawMessage).toBe(`${theirs}: wrong`);
  });

  it("answers a duplicate name ALREADY_EXISTS", () => {
    expect(statusOf(issue("BAD_REQUEST", "name", "NAME_NOT_UNIQUE", "taken")).code).toBe(
      Code.AlreadyExists,
    );
  });

  it("turns zod's issues into the field and its rule", () => {
    const parsed = z.object({ id: z.uuid("a job id is a UUID") }).safeParse({ id: "x" });
    const error = new TRPCError({ code: "BAD_REQUEST", cause: parsed.error });
    expect(statusOf(error).rawMessage).toBe("id: a job id is a UUID");
  });

  it("keeps a bug's detail out of the answer", () => {
    const error = statusOf(new Error("connection string postgres://secret"));
    expect([error.code, error.rawMessage]).toEqual([
      Code.Internal,
      "internal error: see the server's log",
    ]);
  });
});

describe("YARPC", () => {
  it("answers an error with YARPC's status, Rpc-Status and the message", async () => {
    const answer = yarpcErrorResponse(new ConnectError("id: no such job", Code.NotFound));
    expect([answer.status, answer.headers.get("rpc-status"), await answer.text()]).toEqual([
      404,
      "not-found",
      "id: no such job\n",
    ]);
  });

  it("finds a procedure by either spelling, and refuses an ambiguous short one", () => {
    const registry = pelotonRegistry();
    const short = registry.procedure("JobManager.Get");
    const full = registry.procedure("peloton.api.v0.job.JobManager::Get");
    expect(short).toBe(full);
    expect(short && "method" in short && short.handler).toBeTruthy();
    // JobService is both v0's job.svc and v1alpha's stateless one.
    expect(registry.procedure("JobService.GetJob")).toEqual({
      ambiguous: [
        "peloton.api.v0.job.svc.JobService::GetJob",
        "peloton.api.v1alpha.job.stateless.svc.JobService::GetJob",
      ],
    });
    expect(registry.procedure("JobManager.Nope")).toBeNull();
  });
});
