import type { PlacementHostState } from "../input.ts";

/** DRAINING hosts (maintenance) and DOWN hosts take no new task; UP hosts pass. */
export function hostStateFilter(state: PlacementHostState): "HOST_DRAINING" | "HOST_DOWN" | null {
  if (state === "DRAINING") return "HOST_DRAINING";
  if (state === "DOWN") return "HOST_DOWN";
  return null;
}
