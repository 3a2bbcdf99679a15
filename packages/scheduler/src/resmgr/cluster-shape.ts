/**
 * The cluster as "could this gang ever run" sees it (the engine's
 * `ClusterShape`): the capacity of the hosts that count (UP and DRAINING,
 * peloton-semantics.md §1) and their distinct sizes. Read by admission every
 * round and by the job manager at submit, so a host that leaves or joins
 * changes the answer at once.
 */
import type { ClusterShape, HostShape } from "@peloton/engine";
import type { Repositories } from "@peloton/storage";

export async function loadClusterShape(repos: Pick<Repositories, "hosts">): Promise<ClusterShape> {
  const [cluster, shapes] = await Promise.all([repos.hosts.capacity(), repos.hosts.shapes()]);
  const hosts: HostShape[] = shapes.map((s) => ({
    resources: { cpu: s.cpu, gpu: s.gpu, memory: s.memMb, disk: s.diskMb },
    ports: s.ports,
    hosts: s.hosts,
  }));
  return { capacity: cluster.capacity, hosts };
}
