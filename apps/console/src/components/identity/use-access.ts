"use client";
/**
 * May the signed-in person do this? The console asks the API's own policy
 * (`decide`, pure, the same sentence the API would answer with) so that an
 * action they may not take is shown disabled with the reason, never hidden.
 * The API still decides for real on every mutation.
 */
import { type AccessRequest, type Decision, decide } from "@peloton/api/policy";
import { useMe } from "./use-me";

export type Access = { allowed: true; reason?: undefined } | { allowed: false; reason: string };

/** While `me.get` loads: disabled, but not worth a visible note (access-note.tsx skips it). */
export const CHECKING = "checking who you are…";
const UNKNOWN: Access = { allowed: false, reason: CHECKING };
const SIGNED_OUT: Access = { allowed: false, reason: "sign in first" };

function asAccess(d: Decision): Access {
  return d.allowed ? { allowed: true } : { allowed: false, reason: d.reason };
}

/** One request's decision; `null` (facts not loaded yet) answers "checking". */
export function useAccess(request: AccessRequest | null): Access {
  return useAccessDecider()(request);
}

/** For lists (bulk actions, table rows): one function deciding many requests. */
export function useAccessDecider(): (request: AccessRequest | null) => Access {
  const me = useMe();
  return (request) => {
    if (me.isError) return SIGNED_OUT;
    if (!me.data || request === null) return UNKNOWN;
    return asAccess(decide(me.data, request));
  };
}

/** The reason an action is refused, or undefined: what `disabledReason` props take. */
export function refusal(access: Access): string | undefined {
  return access.allowed ? undefined : access.reason;
}
