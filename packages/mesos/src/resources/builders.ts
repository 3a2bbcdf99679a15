/** Small constructors for the Resource messages a scheduler writes into TaskInfos. */
import type { Range, Resource } from "../proto/messages.ts";

export interface ResourceOptions {
  /** Reservation role; omitted or "*" = unreserved. */
  role?: string;
  /** Sets `allocation_info.role`, which multi-role frameworks must send back. */
  allocationRole?: string;
}

function decorate(r: Resource, opts: ResourceOptions): Resource {
  const role = opts.role ?? "*";
  r.role = role;
  if (role !== "*") r.reservations = [{ type: "DYNAMIC", role }];
  if (opts.allocationRole !== undefined) r.allocation_info = { role: opts.allocationRole };
  return r;
}

export function scalarResource(name: string, value: number, opts: ResourceOptions = {}): Resource {
  return decorate({ name, type: "SCALAR", scalar: { value } }, opts);
}

export function rangesResource(
  name: string,
  ranges: ReadonlyArray<readonly [number, number] | Range>,
  opts: ResourceOptions = {},
): Resource {
  const range = ranges.map((r) => ("begin" in r ? { ...r } : { begin: r[0], end: r[1] }));
  return decorate({ name, type: "RANGES", ranges: { range } }, opts);
}

/** A persistent volume of `sizeMb` on disk reserved for `role` (for CREATE, DESTROY and tasks). */
export function volumeResource(args: {
  role: string;
  sizeMb: number;
  persistenceId: string;
  containerPath: string;
  principal?: string;
  mode?: "RW" | "RO";
  allocationRole?: string;
}): Resource {
  const r: Resource = {
    name: "disk",
    type: "SCALAR",
    scalar: { value: args.sizeMb },
    role: args.role,
    reservations: [
      {
        type: "DYNAMIC",
        role: args.role,
        ...(args.principal !== undefined ? { principal: args.principal } : {}),
      },
    ],
    disk: {
      persistence: {
        id: args.persistenceId,
        ...(args.principal !== undefined ? { principal: args.principal } : {}),
      },
      volume: { container_path: args.containerPath, mode: args.mode ?? "RW" },
    },
  };
  if (args.allocationRole !== undefined) r.allocation_info = { role: args.allocationRole };
  return r;
}
