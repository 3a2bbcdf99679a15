import { amountLessOrEqual } from "../../resources/resources.ts";

/**
 * GPU hosts are kept for GPU work (peloton-semantics.md §3: "Hosts that have
 * GPUs take only tasks that ask for GPUs"), and a task that asks for GPUs
 * needs a host that has some. Whether enough are free is the resources
 * filter's question; this one looks at what the host is, not what it holds.
 */
export function gpuFilter(
  taskGpu: number,
  hostTotalGpu: number,
): "GPU_HOST_RESERVED" | "NOT_A_GPU_HOST" | null {
  const asks = !amountLessOrEqual(taskGpu, 0);
  const has = !amountLessOrEqual(hostTotalGpu, 0);
  if (has && !asks) return "GPU_HOST_RESERVED";
  if (asks && !has) return "NOT_A_GPU_HOST";
  return null;
}
