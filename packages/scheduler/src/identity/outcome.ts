/**
 * How the identity service answers: the change, or a refusal the API words
 * as it is (the message names the field and the value). Refusals change
 * nothing; accepted changes committed with their audit row.
 */
import { databaseErrorFacts } from "@peloton/storage";

export type IdentityFailureKind =
  /** A login, team name or live token name already taken. */
  | "duplicate"
  /** No such user, team or token. */
  | "not_found"
  /** Allowed by the policy but not by the rules of the people it touches (the last admin). */
  | "conflict";

export interface IdentityFailure {
  kind: IdentityFailureKind;
  /** The input field the refusal is about ("login", "team", "name"). */
  field: string;
  message: string;
}

export type IdentityResult<T> = { ok: true; value: T } | { ok: false; failure: IdentityFailure };

/** Who acts: the scheduler's one Acting (login and how they came). */

export const accepted = <T>(value: T): IdentityResult<T> => ({ ok: true, value });

export function refused<T>(
  kind: IdentityFailureKind,
  field: string,
  message: string,
): IdentityResult<T> {
  return { ok: false, failure: { kind, field, message } };
}

/** Thrown inside a transaction to roll it back with a refusal; caught by `refusingOn`. */
export class IdentityRefusal extends Error {
  constructor(readonly failure: IdentityFailure) {
    super(failure.message);
  }
}

/** A unique-constraint violation: someone took the name between our check and our insert. */
export function isUniqueViolation(err: unknown): boolean {
  const facts = databaseErrorFacts(err);
  return (
    facts.codes.has("23505") ||
    facts.codes.has("P2002") ||
    facts.kinds.has("UniqueConstraintViolation")
  );
}

/**
 * Runs `write` and turns an `IdentityRefusal` it threw (after a check in its
 * transaction) or a unique violation (a concurrent insert) into a refusal.
 */
export async function refusingOn<T>(
  duplicate: IdentityFailure,
  write: () => Promise<T>,
): Promise<IdentityResult<T>> {
  try {
    return accepted(await write());
  } catch (err) {
    if (err instanceof IdentityRefusal) return { ok: false, failure: err.failure };
    if (isUniqueViolation(err)) return { ok: false, failure: duplicate };
    throw err;
  }
}
