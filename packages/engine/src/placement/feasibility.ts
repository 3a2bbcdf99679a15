/**
 * The filter chain, and the work it saves (Nomad's computed node classes and
 * eval cache):
 * - a task's **class** is what the filters ask of it (resources, ports,
 *   constraint, volume host); a job's tasks share theirs, so it is built once
 *   per run of tasks with the same asks;
 * - the filters that look at what a host *is* (volume, state, GPU, exclusive,
 *   a constraint on attributes) depend only on the GPU ask and the constraint:
 *   their answer is computed once per host for all classes that share those;
 * - a class that found no host is remembered with every host's rejection;
 *   the next task of the class replays only the hosts that changed since,
 *   instead of scanning all hosts again.
 */
import type { Constraint } from "../constraints/constraint.ts";
import { constraintHasKind, constraintNamesExclusive } from "../constraints/evaluate.ts";
import { KIND_COUNT } from "../resources/kinds.ts";
import type { Resources } from "../resources/resources.ts";
import { constraintFilter } from "./filters/constraint.ts";
import { exclusiveFilter } from "./filters/exclusive.ts";
import { gpuFilter } from "./filters/gpu.ts";
import { hostStateFilter } from "./filters/host-state.ts";
import { portsFilter } from "./filters/ports.ts";
import { resourcesFilter } from "./filters/resources.ts";
import { stickyVolumeFilter } from "./filters/sticky-volume.ts";
import type { PlacementTask, PortRequest } from "./input.ts";
import { kindVector } from "./kind-vector.ts";
import { REJECTION_CODES, type RejectionCode, type Rejections } from "./result.ts";
import type { WorkingHosts } from "./working-hosts.ts";

/** `firstRejection`'s answer when every filter passed; otherwise 1 + the code's index. */
export const FITS = 0;
/** In a static cache: 0 = not computed yet, this = the static filters passed. */
const STATIC_PASS = 255;
/** Remembered failures kept at once (each holds a byte per host). */
const MAX_REMEMBERED_FAILURES = 256;

const CODE_NUMBER = new Map<RejectionCode, number>(REJECTION_CODES.map((c, i) => [c, i + 1]));
const num = (code: RejectionCode): number => CODE_NUMBER.get(code)!;

function codeOf(n: number): RejectionCode {
  return REJECTION_CODES[n - 1]!;
}

/** What the filters ask of a task. */
export class TaskClass {
  readonly ask: Float64Array;
  readonly namesExclusive: boolean;
  /** The constraint counts tasks on the host: it is evaluated anew every time. */
  readonly countsTasks: boolean;
  private key: string | undefined;

  constructor(
    readonly resources: Resources,
    readonly ports: PortRequest,
    readonly constraint: Constraint | undefined,
    readonly volumeHost: string | undefined,
    /** Key of the static filters' answers; null for a volume task (one host to check). */
    private readonly staticKey: string | null,
    readonly staticCodes: Uint8Array | null,
  ) {
    this.ask = kindVector(resources);
    this.namesExclusive = constraintNamesExclusive(constraint);
    this.countsTasks = constraint !== undefined && constraintHasKind(constraint, "TASK");
  }

  /** Same key, same hosts pass and fail; null: not remembered (volume tasks). */
  get failureKey(): string | null {
    if (this.staticKey === null) return null;
    const p = this.ports;
    this.key ??= `${this.staticKey}|${this.ask.join(",")}|${p.dynamic}|${p.static.join(",")}`;
    return this.key;
  }
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

  /** The task's class; the previous task's when it asks through the same objects. */
  classOf(task: PlacementTask): TaskClass {
    const last = this.last;
    if (
      last !== null &&
      last.resources === task.resources &&
      last.ports === task.ports &&
      last.constraint === task.constraint &&
      last.volumeHost === task.volumeHost
    ) {
      return last;
    }
    let cls: TaskClass;
    if (task.volumeHost !== undefined) {
      cls = new TaskClass(task.resources, task.ports, task.constraint, task.volumeHost, null, null);
    } else {
      const staticKey = `${task.resources.gpu > 0 ? "gpu" : "-"}|${this.textOf(task.constraint)}`;
      let codes = this.staticCaches.get(staticKey);
      if (!codes) {
        codes = new Uint8Array(this.w.size);
        this.staticCaches.set(staticKey, codes);
      }
      cls = new TaskClass(task.resources, task.ports, task.constraint, undefined, staticKey, codes);
    }
    this.last = cls;
    return cls;
  }

  /**
   * The filters in pipeline order; the first that rejects the host names the
   * rejection, so a host counts once.
   */
  firstRejection(c: TaskClass, h: number): number {
    // 1–5. What the host is (cached per static class).
    let s = c.staticCodes === null ? 0 : c.staticCodes[h]!;
    if (s === 0) {
      s = this.staticRejection(c, h);
      if (c.staticCodes !== null) c.staticCodes[h] = s;
    }
    if (s !== STATIC_PASS) return s;
    const w = this.w;
    // 5'. A constraint that counts tasks on the host changes as tasks land.
    if (c.countsTasks && constraintFilter(c.constraint, w.focus(h)) !== null) {
      return num("CONSTRAINT_MISMATCH");
    }
    // 6. Resources, per kind with ε slack.
    const lacking = resourcesFilter(c.ask, w.free, h * KIND_COUNT);
    if (lacking !== null) return num(lacking);
    // 7. Ports.
    const ports = portsFilter(c.ports, w.ports[h]!, w.freePortCount[h]!);
    return ports === null ? FITS : num(ports);
  }

  private staticRejection(c: TaskClass, h: number): number {
    const host = this.w.hosts[h]!;
    const code =
      // 1. A stateful instance goes only where its volume is.
      stickyVolumeFilter(c.volumeHost, host.hostname) ??
      // 2. DRAINING and DOWN hosts take nothing.
      hostStateFilter(host.state) ??
      // 3. GPU hosts only for GPU tasks, GPU tasks only on GPU hosts.
      gpuFilter(c.resources.gpu, host.total.gpu) ??
      // 4. Exclusive hosts only for tasks whose constraint names them.
      exclusiveFilter(host.attributes, c.namesExclusive) ??
      // 5. The constraint, when it looks at host attributes only.
      (c.countsTasks ? null : constraintFilter(c.constraint, this.w.focus(h)));
    return code === null ? STATIC_PASS : num(code);
  }

  /** Every host's rejection, from a scan that found none fitting: kept for the class. */
  rememberFailure(c: TaskClass, codes: Uint8Array): Rejections {
    const counts = new Int32Array(REJECTION_CODES.length + 1);
    for (let h = 0; h < codes.length; h++) counts[codes[h]!]!++;
    const key = c.failureKey;
    if (key !== null) {
      if (this.failures.size >= MAX_REMEMBERED_FAILURES) {
        this.failures.delete(this.failures.keys().next().value!);
      }
      this.failures.set(key, { codes, counts, seen: this.w.changes.length });
    }
    return rejectionsOf(counts);
  }

  /**
   * The class's remembered failure, brought up to date with the hosts changed
   * since; null when there is none, or when a changed host now fits (then the
   * caller scans).
   */
  recallFailure(c: TaskClass): Rejections | null {
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
      const code = this.firstRejection(c, h);
      if (code === FITS) {
        this.failures.delete(key);
        return null;
      }
      f.counts[f.codes[h]!]!--;
      f.counts[code]!++;
      f.codes[h] = code;
    }
    f.seen = changes.length;
    return rejectionsOf(f.counts);
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

function rejectionsOf(counts: Int32Array): Rejections {
  const out: Rejections = {};
  for (let i = 1; i < counts.length; i++) if (counts[i]! > 0) out[codeOf(i)] = counts[i]!;
  return out;
}
