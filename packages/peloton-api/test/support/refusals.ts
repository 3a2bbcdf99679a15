/** The gRPC code and message a call is refused with; the test fails when it is answered. */
import { type Code, ConnectError } from "@connectrpc/connect";

export interface Refusal {
  code: Code;
  message: string;
}

function refusalOf(error: unknown): Refusal {
  const e = ConnectError.from(error);
  return { code: e.code, message: e.rawMessage };
}

/** What `promise` (a call to the server) is refused with. */
export async function refusal(promise: Promise<unknown>): Promise<Refusal> {
  try {
    await promise;
  } catch (error) {
    return refusalOf(error);
  }
  throw new Error("expected a refusal");
}

/** What `f` (a mapping, run in the test itself) throws. */
export function refused(f: () => unknown): Refusal {
  try {
    f();
  } catch (error) {
    return refusalOf(error);
  }
  throw new Error("expected a refusal");
}
