import type { PoolConfigInput } from "../../config.ts";
import { lastSegment, parsePoolPath } from "../../path.ts";
import type { PoolValidationError } from "../errors.ts";

/** `respool create <path>`: the path is well formed. Nothing else can be judged without it. */
export function checkPath(path: string): PoolValidationError[] {
  const parsed = parsePoolPath(path);
  if (parsed.ok) return [];
  const { ok: _, ...problem } = parsed;
  return [{ code: "INVALID_PATH", pool: path, values: problem }];
}

/**
 * `respool create <path> <file>` (peloton-semantics.md §2): the file's name is
 * the path's last segment, and the file names no parent (the path gives it).
 */
export function checkCreateFile(path: string, config: PoolConfigInput): PoolValidationError[] {
  const errors: PoolValidationError[] = [];
  const expected = lastSegment(path);
  if (config.name !== expected) {
    errors.push({
      code: "NAME_MISMATCH_PATH",
      pool: path,
      field: "name",
      values: { name: config.name, expected },
    });
  }
  if (config.parent != null) {
    errors.push({
      code: "PARENT_IN_CONFIG",
      pool: path,
      field: "parent",
      values: { parent: config.parent },
    });
  }
  return errors;
}
