/**
 * YARPC's error answer over HTTP: the status code YARPC gives each gRPC
 * code, the code's name in the `Rpc-Status` header, and the message as the
 * plain-text body (what Peloton's YARPC clients read).
 */
import { Code, ConnectError } from "@connectrpc/connect";

const YARPC: Record<Code, { name: string; http: number }> = {
  [Code.Canceled]: { name: "cancelled", http: 499 },
  [Code.Unknown]: { name: "unknown", http: 500 },
  [Code.InvalidArgument]: { name: "invalid-argument", http: 400 },
  [Code.DeadlineExceeded]: { name: "deadline-exceeded", http: 504 },
  [Code.NotFound]: { name: "not-found", http: 404 },
  [Code.AlreadyExists]: { name: "already-exists", http: 409 },
  [Code.PermissionDenied]: { name: "permission-denied", http: 403 },
  [Code.ResourceExhausted]: { name: "resource-exhausted", http: 429 },
  [Code.FailedPrecondition]: { name: "failed-precondition", http: 400 },
  [Code.Aborted]: { name: "aborted", http: 409 },
  [Code.OutOfRange]: { name: "out-of-range", http: 400 },
  [Code.Unimplemented]: { name: "unimplemented", http: 501 },
  [Code.Internal]: { name: "internal", http: 500 },
  [Code.Unavailable]: { name: "unavailable", http: 503 },
  [Code.DataLoss]: { name: "data-loss", http: 500 },
  [Code.Unauthenticated]: { name: "unauthenticated", http: 401 },
};

export function yarpcStatusName(code: Code): string {
  return YARPC[code].name;
}

/** `error` as YARPC answers it. */
export function yarpcErrorResponse(
  error: ConnectError,
  headers: Headers = new Headers(),
): Response {
  const { name, http } = YARPC[error.code];
  headers.set("rpc-status", name);
  headers.set("content-type", "text/plain; charset=utf-8");
  headers.set("cache-control", "no-store");
  return new Response(`${error.rawMessage}\n`, { status: http, headers });
}

export function yarpcError(code: Code, message: string): Response {
  return yarpcErrorResponse(new ConnectError(message, code));
}
