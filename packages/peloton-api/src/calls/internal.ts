import { Code, ConnectError } from "@connectrpc/connect";

/**
 * An internal error's cause goes to the server's log (`onInternal`); the
 * client gets only "internal error". Other errors pass unchanged.
 */
export function reportInternal(
  error: unknown,
  procedure: string,
  onInternal: ((error: unknown, procedure: string) => void) | undefined,
): unknown {
  const status = error instanceof ConnectError ? error : null;
  if (!status || status.code === Code.Internal || status.code === Code.Unknown)
    onInternal?.(status?.cause ?? error, procedure);
  return error;
}
