import { formatResources, formatAmount as n } from "../../resources/format.ts";
import { describePathProblem } from "../path.ts";
import type { PoolValidationError } from "./errors.ts";

function parentName(parent: string): string {
  return parent === "/" ? "the root (the cluster capacity)" : `the parent ${parent}`;
}

/**
 * The one place a validation error becomes words (STYLE.md: errors are values,
 * worded once at each edge). Every sentence starts with the pool and, when
 * there is one, the kind.
 */
export function describeValidationError(e: PoolValidationError): string {
  const at = "kind" in e ? `${e.pool} ${e.kind}` : e.pool;
  switch (e.code) {
    case "INVALID_PATH":
      return describePathProblem(e.pool, e.values);
    case "NAME_MISMATCH_PATH":
      return `${at}: the file names the pool "${e.values.name}" but the path ends in "${e.values.expected}"`;
    case "PARENT_IN_CONFIG":
      return `${at}: the file names a parent (${e.values.parent}); the path already gives it`;
    case "POOL_NOT_FOUND":
      return `${at}: no such pool`;
    case "ROOT_IMMUTABLE":
      return "/ is the root pool: it is never created, updated or deleted";
    case "UNKNOWN_KIND":
      return `${at}: unknown resource kind "${e.values.kind}" (expected cpu, gpu, memory or disk)`;
    case "DUPLICATE_KIND":
      return `${at}: listed twice (entries ${e.values.first + 1} and ${e.values.again + 1})`;
    case "NOT_A_NUMBER":
      return `${at}: ${e.field.split(".").pop()} ${e.values.value} is not a finite number`;
    case "NEGATIVE_RESERVATION":
      return `${at}: reservation ${n(e.values.reservation)} is negative`;
    case "NEGATIVE_SHARE":
      return `${at}: share ${n(e.values.share)} is negative`;
    case "RESERVATION_EXCEEDS_LIMIT":
      return `${at}: reservation ${n(e.values.reservation)} exceeds its limit ${n(e.values.limit)}`;
    case "PARENT_IS_SELF":
      return `${at}: a pool cannot be its own parent`;
    case "PARENT_IS_DESCENDANT":
      return `${at}: cannot move under ${e.values.parent}, which is inside it`;
    case "PARENT_NOT_FOUND":
      return `${at}: the parent ${e.values.parent} does not exist`;
    case "PARENT_CHANGED":
      return `${at}: its parent is ${e.values.parent}; an update cannot change it to ${e.values.requested} (move the pool instead)`;
    case "LIMIT_EXCEEDS_PARENT_LIMIT":
      return `${at}: limit ${n(e.values.limit)} exceeds ${parentName(e.values.parent)}'s limit ${n(e.values.parentLimit)}`;
    case "NAME_NOT_UNIQUE":
      return `${at}: ${e.values.parent} already has a pool named "${e.values.name}"`;
    case "CHILDREN_RESERVATION_EXCEEDS_PARENT": {
      // The real shortfall, also when the parent is already below its other
      // children (then "what is left" would be 0 and say nothing).
      const v = e.values;
      const total =
        v.siblingsReservation > 0
          ? ` (with its sibling pools' ${n(v.siblingsReservation)}, ${n(v.siblingsReservation + v.reservation)})`
          : "";
      return `${at}: reservation ${n(v.reservation)}${total} exceeds ${parentName(v.parent)}'s reservation ${n(v.parentReservation)} by ${n(v.shortfall)}`;
    }
    case "RESERVATION_BELOW_CHILDREN": {
      const v = e.values;
      const parts = v.children.map((c) => `${c.path} ${n(c.reservation)}`);
      if (v.moreChildren > 0) parts.push(`${v.moreChildren} more`);
      return `${at}: reservation ${n(v.reservation)} is below its children's reservations ${n(v.childrenReservation)} (${parts.join(" + ")}); lower theirs first`;
    }
    case "LIMIT_BELOW_CHILD_LIMIT": {
      const v = e.values;
      const parts = v.children.map((c) => `${c.path} ${n(c.limit)}`);
      const more = v.moreChildren > 0 ? ` and ${v.moreChildren} more` : "";
      return `${at}: limit ${n(v.limit)} is below the limit of its child pool${v.children.length + v.moreChildren === 1 ? "" : "s"} ${parts.join(", ")}${more}; lower theirs first`;
    }
    case "PARENT_HAS_JOBS": {
      const v = e.values;
      const jobs = `${v.jobs} job${v.jobs === 1 ? "" : "s"}`;
      const rest = v.jobs - v.names.length;
      const names =
        v.names.length > 0 ? ` (${v.names.join(", ")}${rest > 0 ? ` and ${rest} more` : ""})` : "";
      return `${at}: ${v.parent} has ${jobs}${names}; jobs run in leaf pools only, so a pool with jobs cannot get a child pool (its jobs would wait forever): delete them first or choose another parent`;
    }
    case "CONTROLLER_LIMIT_OVER_100":
      return `${at}: controllerLimit.maxPercent ${n(e.values.maxPercent)} is more than 100`;
    case "NOT_LEAF":
      return `${at}: it has ${e.values.children} child pool${e.values.children === 1 ? "" : "s"}; only a leaf pool can be deleted`;
    case "BUSY": {
      const v = e.values;
      return `${at}: busy (${v.jobs} job${v.jobs === 1 ? "" : "s"}, allocation ${formatResources(v.allocation)}, demand ${formatResources(v.demand)}); only an idle pool can be deleted`;
    }
  }
}
