/**
 * The filter table run on hosts, and the work it saves (Nomad's computed node
 * classes and eval cache):
 * - a task's **class** is what the filters read of it (`TASK_FIELDS`); a job's
 *   tasks share theirs, so it is built once per run of tasks with the same asks;
 * - the static filters' answers (what a host *is*) are computed once per host
 *   for all classes with the same static key: the fields the static rows read
 *   (a volume task is checked on its one host and not cached);
 * - a class that found no host is remembered with every host's answer, keyed
 *   by every field the filters read; the next task of the class replays only
 *   the hosts that changed since, instead of scanning all hosts again.
 */
import type { Constraint } from "../constraints/constraint.ts";
import { constraintHasKind, constraintNamesExclusive } from "../constraints/evaluate.ts";
import type { Resources } from "../resources/resources.ts";
import {
  DYNAMIC_FILTERS,
  FAILURE_KEY_FIELDS,
  type FilterRow,
  filtersFor,
  keyOf,
  REJECTION_CODES,
  type RejectionCode,
  STATIC_KEY_FIELDS,
} from "./filters/pipeline.ts";
import type { PlacementTask, PortRequest } from "./input.ts";
import { kindVector } from "./kind-vector.ts";
import type { Rejections } from "./result.ts";
import type { WorkingHosts } from "./working-hosts.ts";

/**
 * A host's answer for a task class, one byte: `FITS`, or 1 + the code's index
 * in `REJECTION_CODES`, with `NEVER` set when no change of allocation could
 * make the host take the task (a static filter rejected it, or it is above
 * the host's total).
 */
export const FITS = 0;
export const NEVER = 0x80;
const CODE_MASK = 0x7f;
/** In a static cache: 0 = not computed yet, this = the static filters passed. */
const STATIC_PASS = 0xff;
/** Remembered failures kept at once (each holds a byte per host). */
const MAX_REMEMBERED_FAILURES = 256;

if (REJECTION_CODES.length >= CODE_MASK) throw new Error("placement: too many rejection codes");

const CODE_NUMBER = new Map<RejectionCode, number>(REJECTION_CODES.map((c, i) => [c, i + 1]));
const num = (code: RejectionCode): number => CODE_NUMBER.get(code)!;

/**
 * Per code number, the `never` check of the dynamic row that answers it. A
 * code two dynamic rows answer could not say which row rejected: refused.
 */
const NEVER_CHECK: (FilterRow<RejectionCode>["never"] | undefined)[] = [];
for (const f of DYNAMIC_FILTERS) {
  for (const code of f.codes) {
    const n = num(code);
    if (n in NEVER_CHECK) throw new Error(`placement: two dynamic filters answer ${code}`);
    NEVER_CHECK[n] = f.never;
  }
}

/** The task fields the filters read, as one class (see `TASK_FIELDS`). */
export class TaskClass {
  readonly ask: Float64Array;
  readonly namesExclusive: boolean;
  /** The constraint counts tasks on the host: it is evaluated anew every time. */
  readonly countsTasks: boolean;
  /** The filters that run for this class, in pipeline order. */
  readonly staticFilters: readonly FilterRow<RejectionCode>[];
  readonly dynamicFilters: readonly FilterRow<RejectionCode>[];
  /** The static filters' answers per host; null for a volume task (one host to check). */
  staticCodes: Uint8Array | null = null;
  private key: string | undefined;

  constructor(
    readonly resources: Resources,
    readonly ports: PortRequest,
    readonly constraint: Constraint | undefined,
    readonly volumeHost: string | undefined,
    /** The constraint as text (cache keys). */
    readonly constraintText: string,
  ) {
    this.ask = kindVector(resources);
    this.namesExclusive = constraintNamesExclusive(constraint);
    this.countsTasks = constraint !== undefined && constraintHasKind(constraint, "TASK");
    const filters = filtersFor(this);
    this.staticFilters = filters.static;
    this.dynamicFilters = filters.dynamic;
  }

  /** Same key, same hosts pass and fail; null: not remembered (volume tasks). */
  get failureKey(): string | null {
    if (this.volumeHost !== undefined) return null;
    this.key ??= keyOf(FAILURE_KEY_FIELDS, this);
    return this.key;
  }
}

/** An unplaced task's rejections, and whether a change of allocation could place it. */
export interface Shortfall {
  readonly rejections: Rejections;
  readonly resolvable: boolean;
}

interface Failure {
  readonly codes: Uint8Array;
  readonly counts: Int32Array;
  seen: number;
}

export class Feasibility {
  private readonly staticCaches = new Map<string, Uint8Array>();
  private readonly constraintText = new WeakMap<Constraint, string>();
  private readonly failures = new Map<string, Failure>();
  private last: TaskClass | null = null;

  constructor(private readonly w: WorkingHosts) {}

  /**
   * The task's class; the previous task's when it asks through the same
   * objects (ports by value: callers often build them per task).
   */
  classOf(task: PlacementTask): TaskClass {
    const last = this.last;
    if (
      last !== null &&
      last.resources === task.resources &&
      samePorts(last.ports, task.ports) &&
      last.constraint === task.constraint &&
      last.volumeHost === task.volumeHost
    ) {
      return last;
    }
    const cls = new TaskClass(
      task.resources,
      task.ports,
      task.constraint,
      task.volumeHost,
      this.textOf(task.constraint),
    );
    // A volume task is checked on its one host: no cache for it.
    if (task.volumeHost === undefined) {
      const staticKey = keyOf(STATIC_KEY_FIELDS, cls);
      let codes = this.staticCaches.get(staticKey);
      if (!codes) {
        codes = new Uint8Array(this.w.size);
        this.staticCaches.set(staticKey, codes);
      }
      cls.staticCodes = codes;
    }
    this.last = cls;
    return cls;
  }

  /**
   * The filters in pipeline order (`FILTERS`); the first that rejects the host
   * names the rejection, so a host counts once.
   */
  firstRejection(c: TaskClass, h: number): number {
    // What the host is: cached per static class.
    const cache = c.staticCodes;
    let s = cache === null ? 0 : cache[h]!;
    if (s === 0) {
      s = this.staticRejection(c, h);
      if (cache !== null) cache[h] = s;
    }
    if (s !== STATIC_PASS) return s;
    // What is allocated now.
    const w = this.w;
    const rows = c.dynamicFilters;
    for (let i = 0; i < rows.length; i++) {
      const f = rows[i]!;
      const code = f.check(c, w, h);
      // The NEVER bit of a dynamic rejection is added only if the task ends unplaced.
      if (code !== null) return num(code);
    }
    return FITS;
  }

  private staticRejection(c: TaskClass, h: number): number {
    const rows = c.staticFilters;
    for (let i = 0; i < rows.length; i++) {
      const code = rows[i]!.check(c, this.w, h);
      if (code !== null) return num(code) | NEVER;
    }
    return STATIC_PASS;
  }

  /** Every host's rejection, from a scan that found none fitting: kept for the class. */
  rememberFailure(c: TaskClass, codes: Uint8Array): Shortfall {
    const counts = new Int32Array(STATIC_PASS + 1);
    for (let h = 0; h < codes.length; h++) {
      const code = this.withNever(c, h, codes[h]!);
      codes[h] = code;
      counts[code]!++;
    }
    const key = c.failureKey;
    if (key !== null) {
      if (this.failures.size >= MAX_REMEMBERED_FAILURES) {
        this.failures.delete(this.failures.keys().next().value!);
      }
      this.failures.set(key, { codes, counts, seen: this.w.changes.length });
    }
    return shortfallOf(counts);
  }

  /**
   * The class's remembered failure, brought up to date with the hosts changed
   * since; null when there is none, or when a changed host now fits (then the
   * caller scans).
   */
  recallFailure(c: TaskClass): Shortfall | null {
    if (this.failures.size === 0) return null;
    const key = c.failureKey;
    const f = key === null ? undefined : this.failures.get(key);
    if (key === null || !f) return null;
    const changes = this.w.changes;
    if (changes.length - f.seen > this.w.size) {
      this.failures.delete(key);
      return null;
    }
    for (let i = f.seen; i < changes.length; i++) {
      const h = changes[i]!;
      let code = this.firstRejection(c, h);
      if (code === FITS) {
        this.failures.delete(key);
        return null;
      }
      code = this.withNever(c, h, code);
      f.counts[f.codes[h]!]!--;
      f.counts[code]!++;
      f.codes[h] = code;
    }
    f.seen = changes.length;
    return shortfallOf(f.counts);
  }

  /**
   * A dynamic rejection with the NEVER bit when its row says the host can
   * never take the task (kept off the scan's hot path: only an unplaced task
   * needs it). Static rejections carry the bit already.
   */
  private withNever(c: TaskClass, h: number, code: number): number {
    if ((code & NEVER) !== 0) return code;
    const never = NEVER_CHECK[code];
    return never?.(c, this.w, h) ? code | NEVER : code;
  }

  private textOf(c: Constraint | undefined): string {
    if (c === undefined) return "";
    let text = this.constraintText.get(c);
    if (text === undefined) {
      text = JSON.stringify(c);
      this.constraintText.set(c, text);
    }
    return text;
  }
}

function samePorts(a: PortRequest, b: PortRequest): boolean {
  if (a === b) return true;
  if (a.dynamic !== b.dynamic || a.static.length !== b.static.length) return false;
  for (let i = 0; i < a.static.length; i++) if (a.static[i] !== b.static[i]) return false;
  return true;
}

/** Counts per answer byte → counts per code; resolvable when some host's rejection is. */
function shortfallOf(counts: Int32Array): Shortfall {
  const rejections: Rejections = {};
  let resolvable = false;
  for (let i = 1; i < STATIC_PASS; i++) {
    const n = counts[i]!;
    if (n === 0) continue;
    const code = REJECTION_CODES[(i & CODE_MASK) - 1]!;
    rejections[code] = (rejections[code] ?? 0) + n;
    if ((i & NEVER) === 0) resolvable = true;
  }
  return { rejections, resolvable };
}
