import type { PortRange, PortRequest } from "../input.ts";
import { portIsFree } from "../ports.ts";

/**
 * Every static port is free on the host, and after them enough free ports are
 * left for the dynamic count. `freeCount` is the number of ports in `ranges`
 * (kept beside them, so the common case costs no walk).
 */
export function portsFilter(
  request: PortRequest,
  ranges: readonly PortRange[],
  freeCount: number,
): "STATIC_PORT_TAKEN" | "INSUFFICIENT_PORTS" | null {
  const statics = request.static;
  for (let i = 0; i < statics.length; i++) {
    if (!portIsFree(ranges, statics[i]!)) return "STATIC_PORT_TAKEN";
  }
  return freeCount - statics.length < request.dynamic ? "INSUFFICIENT_PORTS" : null;
}
