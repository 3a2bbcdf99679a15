import { EXCLUSIVE_ATTRIBUTE } from "../../constraints/attributes.ts";

/**
 * A host with the attribute `peloton/exclusive` takes only tasks whose
 * constraint names that attribute (peloton-semantics.md §3; Peloton's
 * `IsNonExclusiveConstraint`). Which exclusive hosts such a task accepts is
 * then the constraint filter's question: naming is the ticket in, even inside
 * a NOT, as in Peloton.
 */
export function exclusiveFilter(
  hostAttributes: Readonly<Record<string, string>>,
  taskNamesExclusive: boolean,
): "EXCLUSIVE_HOST" | null {
  return Object.hasOwn(hostAttributes, EXCLUSIVE_ATTRIBUTE) && !taskNamesExclusive
    ? "EXCLUSIVE_HOST"
    : null;
}
