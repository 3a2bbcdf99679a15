/**
 * Our errors as Peloton's API answers them: a gRPC status code and one
 * sentence naming each field and its problem ("config.name: a job needs a
 * name"), from the router's TRPCError and its issues. YARPC uses the same
 * codes (yarpc/errors.ts gives their names and HTTP statuses).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { answerFor, issuesOf } from "@peloton/api";
import { TRPCError } from "@trpc/server";

const BY_TRPC_CODE: Partial<Record<TRPCError["code"], Code>> = {
  BAD_REQUEST: Code.InvalidArgument,
  PARSE_ERROR: Code.InvalidArgument,
  UNPROCESSABLE_CONTENT: Code.InvalidArgument,
  PAYLOAD_TOO_LARGE: Code.InvalidArgument,
  UNAUTHORIZED: Code.Unauthenticated,
  FORBIDDEN: Code.PermissionDenied,
  NOT_FOUND: Code.NotFound,
  CONFLICT: Code.Aborted,
  PRECONDITION_FAILED: Code.FailedPrecondition,
  TOO_MANY_REQUESTS: Code.ResourceExhausted,
  TIMEOUT: Code.DeadlineExceeded,
  SERVICE_UNAVAILABLE: Code.Unavailable,
  METHOD_NOT_SUPPORTED: Code.Unimplemented,
  NOT_IMPLEMENTED: Code.Unimplemented,
  CLIENT_CLOSED_REQUEST: Code.Canceled,
};

/** Rule codes that mean "it is there already", whatever the router's code. */
const ALREADY_EXISTS = new Set(["NAME_NOT_UNIQUE", "ALREADY_EXISTS"]);

/**
 * How the router's field names read in a method's request: a prefix for
 * every one (`config.`), or a function from the router's name to the
 * request's (`id` → `updateId`).
 */
export type FieldNaming = string | ((field: string) => string);

/**
 * `error` as a ConnectError. Field names are prefixed with where the
 * request carried them (`config.` for a job or pool config), or renamed as
 * `fieldNaming` says, so a Peloton client sees its own message's path. Anything that is not ours is an
 * internal error whose message says only that (the cause is logged by the
 * server that catches it).
 */
export function statusOf(error: unknown, fieldNaming: FieldNaming = ""): ConnectError {
  const name = (field: string) =>
    typeof fieldNaming === "string" ? `${fieldNaming}${field}` : fieldNaming(field);
  if (error instanceof ConnectError) return error;
  if (!(error instanceof TRPCError)) {
    return new ConnectError(
      "internal error: see the server's log",
      Code.Internal,
      undefined,
      undefined,
      error,
    );
  }
  const answer = answerFor(error);
  const issues = issuesOf(answer.cause, undefined) ?? [];
  const code = issues.some((i) => ALREADY_EXISTS.has(i.code))
    ? Code.AlreadyExists
    : (BY_TRPC_CODE[answer.code] ?? Code.Internal);
  const message = issues.length
    ? issues.map((i) => (i.field ? `${name(i.field)}: ${i.message}` : i.message)).join("; ")
    : answer.message;
  return new ConnectError(
    code === Code.Internal ? "internal error: see the server's log" : message,
    code,
    undefined,
    undefined,
    error,
  );
}

/** A method Peloton has and this scheduler does not (yet): UNIMPLEMENTED, saying what is missing. */
export function unimplemented(what: string): ConnectError {
  return new ConnectError(what, Code.Unimplemented);
}

/** What the request names does not exist (a lookup this package makes, such as a volume by id). */
export function notFound(field: string, message: string): ConnectError {
  return new ConnectError(`${field}: ${message}`, Code.NotFound);
}

/** A request this scheduler refuses as given (a field it cannot honour), before any call. */
export function invalidArgument(field: string, message: string): ConnectError {
  return new ConnectError(`${field}: ${message}`, Code.InvalidArgument);
}
