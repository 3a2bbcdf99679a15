/**
 * Storage errors are values with a kind and the facts; the API turns them into
 * words (and HTTP codes) in one place.
 */
export class VersionConflictError extends Error {
  override readonly name = "VersionConflictError";
  constructor(
    readonly entity: string,
    readonly key: string,
    readonly expectedVersion: number,
    readonly actualVersion: number | null,
  ) {
    super(
      actualVersion === null
        ? `${entity} ${key} no longer exists`
        : `${entity} ${key} was changed by someone else (you edited version ${expectedVersion}, it is now at version ${actualVersion})`,
    );
  }
}

export class NotFoundError extends Error {
  override readonly name = "NotFoundError";
  constructor(
    readonly entity: string,
    readonly key: string,
  ) {
    super(`${entity} ${key} does not exist`);
  }
}
