/**
 * The filters as one table (issue 15 item 5: placement's extension points are
 * data). Each row says what it answers (its rejection codes), whether the
 * answer depends only on what the host and the task *are* (static: cached per
 * host, and no change of what runs anywhere can change it) or on what is
 * allocated now (dynamic), which task fields it reads, and the function.
 * From the rows come:
 * - the pipeline order: the rows in table order (static rows must come first,
 *   so their answers can be cached as one prefix);
 * - the rejection codes: the rows' codes in that order, typed as their union;
 * - the feasibility cache keys: the static cache from exactly the task fields
 *   the static rows read, a remembered failure from the fields every row reads.
 * Adding a filter is adding a row.
 */

import { KIND_COUNT } from "../../resources/kinds.ts";
import { amountLessOrEqual } from "../../resources/resources.ts";
import type { TaskClass } from "../feasibility.ts";
import type { WorkingHosts } from "../working-hosts.ts";
import { constraintFilter } from "./constraint.ts";
import { exclusiveFilter } from "./exclusive.ts";
import { gpuFilter } from "./gpu.ts";
import { hostStateFilter } from "./host-state.ts";
import { portsFilter } from "./ports.ts";
import { aboveTotal, INSUFFICIENT, resourcesFilter } from "./resources.ts";
import { stickyVolumeFilter } from "./sticky-volume.ts";

/**
 * What a filter may read of a task, and how each is written into a cache key:
 * two tasks with the same text in every field a filter reads get the same
 * answer from it on every host.
 */
export const TASK_FIELDS = {
  volumeHost: (c: TaskClass) => c.volumeHost ?? "",
  /** Only whether it asks for GPUs (the GPU filter's question), not how many. */
  asksGpu: (c: TaskClass) => (amountLessOrEqual(c.resources.gpu, 0) ? "-" : "gpu"),
  constraint: (c: TaskClass) => c.constraintText,
  resources: (c: TaskClass) => c.ask.join(","),
  ports: (c: TaskClass) => `${c.ports.dynamic}/${c.ports.static.join(",")}`,
} as const;

export type TaskField = keyof typeof TASK_FIELDS;

export interface FilterRow<C extends string = string> {
  readonly name: string;
  /** Every code the function may answer, in the order it checks them. */
  readonly codes: readonly C[];
  /**
   * static: depends only on the host and the task's shape (cached per host and
   * class; a rejection no change of allocation can resolve). dynamic: depends
   * on what is allocated now.
   */
  readonly kind: "static" | "dynamic";
  readonly reads: readonly TaskField[];
  /**
   * Whether the row runs for a task class at all (absent: always). It may look
   * only at fields the row reads, or classes sharing a cache key would differ.
   */
  readonly appliesTo?: (c: TaskClass) => boolean;
  /** null: the host passes; else the rejection. */
  readonly check: (c: TaskClass, w: WorkingHosts, h: number) => C | null;
  /**
   * A dynamic row's rejection that no change of allocation can resolve on this
   * host (the task is above its total). Asked only of the hosts of a task that
   * ends unplaced, never while scanning; a code two dynamic rows answer is
   * refused at load, so the code names the row.
   */
  readonly never?: (c: TaskClass, w: WorkingHosts, h: number) => boolean;
}

/** A row with its codes' literal types kept (the union of rejection codes comes from them). */
const row = <C extends string>(r: FilterRow<C>): FilterRow<C> => r;

export const FILTERS = [
  // A stateful instance goes only where its volume is.
  row({
    name: "volume",
    codes: ["VOLUME_ON_OTHER_HOST"],
    kind: "static",
    reads: ["volumeHost"],
    check: (c, w, h) => stickyVolumeFilter(c.volumeHost, w.hosts[h]!.hostname),
  }),
  // DRAINING and DOWN hosts take nothing.
  row({
    name: "host state",
    codes: ["HOST_DRAINING", "HOST_DOWN"],
    kind: "static",
    reads: [],
    check: (_c, w, h) => hostStateFilter(w.hosts[h]!.state),
  }),
  // GPU hosts only for GPU tasks, GPU tasks only on GPU hosts.
  row({
    name: "gpu",
    codes: ["GPU_HOST_RESERVED", "NOT_A_GPU_HOST"],
    kind: "static",
    reads: ["asksGpu"],
    check: (c, w, h) => gpuFilter(c.resources.gpu, w.hosts[h]!.total.gpu),
  }),
  // Exclusive hosts only for tasks whose constraint names them.
  row({
    name: "exclusive",
    codes: ["EXCLUSIVE_HOST"],
    kind: "static",
    reads: ["constraint"],
    check: (c, w, h) => exclusiveFilter(w.hosts[h]!.attributes, c.namesExclusive),
  }),
  // The constraint, when it looks at host attributes only...
  row({
    name: "host constraint",
    codes: ["CONSTRAINT_MISMATCH"],
    kind: "static",
    reads: ["constraint"],
    appliesTo: (c) => c.constraint !== undefined && !c.countsTasks,
    check: (c, w, h) => constraintFilter(c.constraint, w.focus(h)),
  }),
  // ...and when it counts tasks on the host, which changes as tasks land.
  row({
    name: "task constraint",
    codes: ["CONSTRAINT_MISMATCH"],
    kind: "dynamic",
    reads: ["constraint"],
    appliesTo: (c) => c.countsTasks,
    check: (c, w, h) => constraintFilter(c.constraint, w.focus(h)),
  }),
  // Free resources, per kind with ε slack.
  row({
    name: "resources",
    codes: INSUFFICIENT,
    kind: "dynamic",
    reads: ["resources"],
    check: (c, w, h) => resourcesFilter(c.ask, w.free, h * KIND_COUNT),
    never: (c, w, h) => aboveTotal(c.ask, w.total, h * KIND_COUNT),
  }),
  // Static ports free, then enough left for the dynamic count.
  row({
    name: "ports",
    codes: ["STATIC_PORT_TAKEN", "INSUFFICIENT_PORTS"],
    kind: "dynamic",
    reads: ["ports"],
    check: (c, w, h) => portsFilter(c.ports, w.ports[h]!, w.freePortCount[h]!),
  }),
] as const;

type CodesOf<R> = R extends FilterRow<infer C> ? C : never;

/** Why a host was rejected: the union of the table's codes. */
export type RejectionCode = CodesOf<(typeof FILTERS)[number]>;

/** The table's codes in pipeline order, each once. */
export const REJECTION_CODES: readonly RejectionCode[] = [
  ...new Set(FILTERS.flatMap((f): readonly RejectionCode[] => f.codes)),
];

export const STATIC_FILTERS: readonly FilterRow<RejectionCode>[] = FILTERS.filter(
  (f) => f.kind === "static",
);
export const DYNAMIC_FILTERS: readonly FilterRow<RejectionCode>[] = FILTERS.filter(
  (f) => f.kind === "dynamic",
);

/** The task fields the given rows read, each once, in table order. */
export function fieldsRead(rows: readonly FilterRow[]): readonly TaskField[] {
  return [...new Set(rows.flatMap((f) => f.reads))];
}

/** Fields of the static cache's key: exactly what the static filters read. */
export const STATIC_KEY_FIELDS = fieldsRead(STATIC_FILTERS);
/** Fields of a remembered failure's key: what any filter reads. */
export const FAILURE_KEY_FIELDS = fieldsRead(FILTERS);

/** A task class's key over the given fields (once per class: a loop, not map and join). */
export function keyOf(fields: readonly TaskField[], c: TaskClass): string {
  let key = "";
  for (let i = 0; i < fields.length; i++) {
    if (i > 0) key += "|";
    key += TASK_FIELDS[fields[i]!](c);
  }
  return key;
}

/** The rows that run for a class: static, then dynamic. */
export interface ClassFilters {
  readonly static: readonly FilterRow<RejectionCode>[];
  readonly dynamic: readonly FilterRow<RejectionCode>[];
}

const CONDITIONAL: readonly FilterRow<RejectionCode>[] = FILTERS.filter(
  (f) => f.appliesTo !== undefined,
);
const filtersByMask = new Map<number, ClassFilters>();

/**
 * The rows whose `appliesTo` accepts the class, one list per combination of
 * answers (built once; a batch builds a class per run of tasks).
 */
export function filtersFor(c: TaskClass): ClassFilters {
  let mask = 0;
  for (let i = 0; i < CONDITIONAL.length; i++) if (CONDITIONAL[i]!.appliesTo!(c)) mask |= 1 << i;
  let out = filtersByMask.get(mask);
  if (!out) {
    const runs = (f: FilterRow<RejectionCode>) => {
      const i = CONDITIONAL.indexOf(f);
      return i < 0 || (mask & (1 << i)) !== 0;
    };
    out = { static: STATIC_FILTERS.filter(runs), dynamic: DYNAMIC_FILTERS.filter(runs) };
    filtersByMask.set(mask, out);
  }
  return out;
}

function assertStaticFirst(): void {
  const firstDynamic = FILTERS.findIndex((f) => f.kind === "dynamic");
  if (firstDynamic >= 0 && FILTERS.slice(firstDynamic).some((f) => f.kind === "static")) {
    throw new Error("placement filters: every static filter must come before the dynamic ones");
  }
}
assertStaticFirst();
