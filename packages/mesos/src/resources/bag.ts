/**
 * A multiset of Mesos resources with the arithmetic the master needs:
 * add, subtract, contains. Pure and synchronous; used by mesos-sim for agent
 * accounting and offer validation, and by schedulers to size offers.
 *
 * Scalars are kept in Mesos' fixed-point precision (three decimals), so
 * 0.1 + 0.2 cpus is exactly 0.3 here as it is in the master.
 */
import type { Range, Resource } from "../proto/messages.ts";
import { reservationRole, resourceKey, UNRESERVED } from "./identity.ts";
import { addRanges, rangesContain, subtractRanges } from "./ranges.ts";

interface Entry {
  /** The resource's identity and metadata, values stripped. */
  shape: Resource;
  scalar: number;
  ranges: Range[];
  set: Set<string>;
}

const ORDER = ["cpus", "mem", "disk", "gpus", "ports"];

export function roundScalar(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function shapeOf(r: Resource): Resource {
  const { scalar: _s, ranges: _r, set: _set, allocation_info: _a, ...shape } = r;
  return shape;
}

function isEmptyEntry(e: Entry): boolean {
  switch (e.shape.type) {
    case "SCALAR":
      return e.scalar <= 0;
    case "RANGES":
      return e.ranges.length === 0;
    case "SET":
      return e.set.size === 0;
  }
}

export class ResourceBag {
  private readonly entries = new Map<string, Entry>();

  static of(resources: readonly Resource[] = []): ResourceBag {
    return new ResourceBag().add(resources);
  }

  clone(): ResourceBag {
    const copy = new ResourceBag();
    for (const [key, e] of this.entries) copy.entries.set(key, copyEntry(e));
    return copy;
  }

  add(other: ResourceBag | readonly Resource[]): this {
    if (other instanceof ResourceBag) {
      for (const [key, o] of other.entries) {
        const e = this.entries.get(key);
        if (e === undefined) this.entries.set(key, copyEntry(o));
        else {
          e.scalar = roundScalar(e.scalar + o.scalar);
          if (o.ranges.length > 0) e.ranges = addRanges(e.ranges, o.ranges);
          for (const item of o.set) e.set.add(item);
        }
      }
      return this;
    }
    for (const r of other) {
      const key = resourceKey(r);
      const e = this.entries.get(key);
      if (e === undefined) {
        const fresh: Entry = { shape: shapeOf(r), scalar: 0, ranges: [], set: new Set() };
        mergeInto(fresh, r);
        if (!isEmptyEntry(fresh)) this.entries.set(key, fresh);
      } else {
        mergeInto(e, r);
      }
    }
    return this;
  }

  /** Removes `other`; whatever `other` holds beyond this bag is ignored (saturating). */
  subtract(other: ResourceBag | readonly Resource[]): this {
    if (other instanceof ResourceBag) {
      for (const [key, o] of other.entries) {
        const e = this.entries.get(key);
        if (e === undefined) continue;
        e.scalar = roundScalar(e.scalar - o.scalar);
        if (o.ranges.length > 0) e.ranges = subtractRanges(e.ranges, o.ranges);
        for (const item of o.set) e.set.delete(item);
        if (isEmptyEntry(e)) this.entries.delete(key);
      }
      return this;
    }
    for (const r of other) {
      const key = resourceKey(r);
      const e = this.entries.get(key);
      if (e === undefined) continue;
      if (r.type === "SCALAR") e.scalar = roundScalar(e.scalar - (r.scalar?.value ?? 0));
      else if (r.type === "RANGES") e.ranges = subtractRanges(e.ranges, r.ranges?.range ?? []);
      else for (const item of r.set?.item ?? []) e.set.delete(item);
      if (isEmptyEntry(e)) this.entries.delete(key);
    }
    return this;
  }

  contains(other: ResourceBag | readonly Resource[]): boolean {
    const need = other instanceof ResourceBag ? other : ResourceBag.of(other);
    for (const [key, n] of need.entries) {
      const have = this.entries.get(key);
      if (have === undefined) return false;
      if (n.shape.type === "SCALAR" && roundScalar(have.scalar - n.scalar) < 0) return false;
      if (n.shape.type === "RANGES" && !rangesContain(have.ranges, n.ranges)) return false;
      if (n.shape.type === "SET" && [...n.set].some((i) => !have.set.has(i))) return false;
    }
    return true;
  }

  isEmpty(): boolean {
    return this.entries.size === 0;
  }

  /** Sum of a scalar resource, over every reservation unless `role` narrows it. */
  scalar(name: string, role?: string): number {
    let sum = 0;
    for (const e of this.entries.values()) {
      if (e.shape.name !== name || e.shape.type !== "SCALAR") continue;
      if (role !== undefined && reservationRole(e.shape) !== role) continue;
      sum += e.scalar;
    }
    return roundScalar(sum);
  }

  /** The resources of this bag that satisfy `keep`. */
  filter(keep: (r: Resource) => boolean): ResourceBag {
    const out = new ResourceBag();
    for (const [key, e] of this.entries) {
      if (keep(e.shape)) out.entries.set(key, copyEntry(e));
    }
    return out;
  }

  /**
   * Proto form in a stable order (cpus, mem, disk, gpus, ports, others;
   * unreserved before reserved), each marked as allocated to `allocationRole`.
   */
  toResources(allocationRole?: string): Resource[] {
    const list = [...this.entries.values()].sort(compareEntries);
    return list.map((e) => {
      const r: Resource = { name: e.shape.name, type: e.shape.type };
      if (e.shape.type === "SCALAR") r.scalar = { value: e.scalar };
      else if (e.shape.type === "RANGES") r.ranges = { range: e.ranges.map((x) => ({ ...x })) };
      else r.set = { item: [...e.set] };
      r.role = reservationRole(e.shape);
      if (r.role !== UNRESERVED) {
        r.reservations = e.shape.reservations ?? [
          { type: e.shape.reservation !== undefined ? "DYNAMIC" : "STATIC", role: r.role },
        ];
      }
      if (allocationRole !== undefined) r.allocation_info = { role: allocationRole };
      if (e.shape.disk !== undefined) r.disk = e.shape.disk;
      if (e.shape.revocable !== undefined) r.revocable = {};
      return r;
    });
  }
}

/** Ranges arrays are never mutated in place, so sharing them between copies is safe. */
function copyEntry(e: Entry): Entry {
  return { shape: e.shape, scalar: e.scalar, ranges: e.ranges, set: new Set(e.set) };
}

function mergeInto(e: Entry, r: Resource): void {
  if (r.type === "SCALAR") e.scalar = roundScalar(e.scalar + (r.scalar?.value ?? 0));
  else if (r.type === "RANGES") e.ranges = addRanges(e.ranges, r.ranges?.range ?? []);
  else for (const item of r.set?.item ?? []) e.set.add(item);
}

function rank(name: string): number {
  const i = ORDER.indexOf(name);
  return i < 0 ? ORDER.length : i;
}

function compareEntries(a: Entry, b: Entry): number {
  const volA = a.shape.disk?.persistence !== undefined ? 1 : 0;
  const volB = b.shape.disk?.persistence !== undefined ? 1 : 0;
  const resA = reservationRole(a.shape) === UNRESERVED ? 0 : 1;
  const resB = reservationRole(b.shape) === UNRESERVED ? 0 : 1;
  return (
    volA - volB ||
    resA - resB ||
    rank(a.shape.name) - rank(b.shape.name) ||
    a.shape.name.localeCompare(b.shape.name)
  );
}
