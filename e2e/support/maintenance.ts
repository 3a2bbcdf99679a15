/**
 * Maintenance a spec started and did not complete (it failed on the way) is
 * completed when the test ends: the specs after it count hosts and capacity,
 * and a host left DOWN would fail them all.
 */
import { adminApi } from "./auth.ts";

export async function completeLeftMaintenance(
  baseURL: string,
  hostnames: Iterable<string>,
): Promise<void> {
  const api = adminApi(baseURL);
  for (const hostname of hostnames) {
    const host = await api.hosts.get.query({ hostname });
    if (host.goalState === "DOWN") await api.hosts.completeMaintenance.mutate({ hostname });
  }
}
