/**
 * Peloton's `query.OrderBy` (v0's and v1alpha's, the same fields) as one of
 * the router's sorts. Peloton sorts job queries on a property of its index
 * and task queries on a list of properties, in memory; the router sorts
 * one key on the server, page by page, so a query of a million tasks stays
 * a range of an index. The properties below are served; another property,
 * or more than one, is answered UNIMPLEMENTED naming what is served, never
 * ignored. As in Peloton, an order other than DESC ascends.
 */
import { unimplemented } from "../calls/status.ts";
import { OrderBy_Order } from "../generated/peloton/api/v0/query/query_pb.ts";

/** An OrderBy of either version: v1alpha's ORDER_BY_DESC is v0's DESC, 2. */
interface AnyOrderBy {
  order: number;
  property?: { value: string } | undefined;
}

export interface RouterSort<K extends string> {
  sort: K;
  order: "asc" | "desc";
}

/**
 * A job query's properties (the CLI's `job query --sort`, creation_time by
 * default). States sort in Peloton's enum order, which the stored enum keeps.
 */
export const JOB_SORTS = { creation_time: "createdAt", name: "name", state: "state" } as const;

/**
 * A task query's properties that the router sorts on too. Peloton's
 * creation_time is the run's start; states sort in lifecycle order (Peloton
 * numbers LAUNCHED after KILLED); tasks without a host or a start come last
 * ascending, first descending. Peloton's message, reason and name are not
 * served. Its server takes `instanceId` while its CLI's help for `task
 * query` and `pod query` offers `instance_id`: both are read.
 */
export const TASK_SORTS = {
  instanceId: "instance",
  instance_id: "instance",
  state: "state",
  host: "host",
  creation_time: "startedAt",
} as const;

interface WithOrderBy {
  orderBy: readonly AnyOrderBy[];
}

/**
 * The router's sort for a query's orderBy (none when empty: the router's
 * default order), read from the request's own pagination when it has one
 * (the svc services), else from its spec's (as the queries read the rest).
 */
export function routerSort<K extends string>(
  req: {
    pagination?: WithOrderBy | undefined;
    spec?: { pagination?: WithOrderBy | undefined } | undefined;
  },
  properties: Readonly<Record<string, K>>,
): RouterSort<K> | undefined {
  const field = req.pagination ? "pagination.orderBy" : "spec.pagination.orderBy";
  const orderBy = (req.pagination ?? req.spec?.pagination)?.orderBy ?? [];
  const [first, ...more] = orderBy;
  if (!first) return undefined;
  const served = Object.keys(properties).join(", ");
  if (more.length > 0)
    throw unimplemented(
      `${field}: one sort property is supported (${served}); got ${orderBy.length}`,
    );
  const property = first.property?.value ?? "";
  const sort = Object.hasOwn(properties, property) ? properties[property] : undefined;
  if (sort === undefined)
    throw unimplemented(
      `${field}[0].property: sorting by "${property}" is not supported; use one of ${served}`,
    );
  return { sort, order: first.order === OrderBy_Order.DESC ? "desc" : "asc" };
}
