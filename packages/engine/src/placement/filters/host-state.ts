import type { PlacementHostState } from "../input.ts";
import type { RejectionCode } from "../result.ts";

/** DRAINING hosts (maintenance) and DOWN hosts take no new task; UP hosts pass. */
export function hostStateFilter(state: PlacementHostState): RejectionCode | null {
  if (state === "DRAINING") return "HOST_DRAINING";
  if (state === "DOWN") return "HOST_DOWN";
  return null;
}
