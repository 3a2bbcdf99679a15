/**
 * The work the browser tests find running: a backlog in every team's pool,
 * submitted through the API as any user would (Peloton job YAML), so that
 * pools compete for the cluster and a reservation change moves
 * entitlements. Backlog tasks are simulated (no process) and run for an
 * hour, on racks r4–r6 only, so that e2e-host-0 … e2e-host-2 keep room for
 * the jobs the specs submit (and e2e-host-0 can be drained empty).
 */
export const BACKLOG_RACKS = ["r4", "r5", "r6"] as const;

/** Each: pool, instances, cores each. Together far more than the cluster holds. */
export const BACKLOG: [path: string, instances: number, cpu: number][] = [
  ["/DefaultResPool", 6, 4],
  ["/infra/services", 6, 4],
  ["/ml/training", 8, 4],
  ["/web", 10, 2],
];

export function backlogYaml(path: string, instances: number, cpu: number): string {
  const name = `${path.split("/").pop()}-backlog`;
  const racks = BACKLOG_RACKS.map(
    (rack) =>
      `        - labelConstraint: { kind: HOST, condition: CONDITION_EQUAL, label: { key: rack, value: ${rack} }, requirement: 1 }`,
  ).join("\n");
  return `name: ${name}
type: BATCH
owningTeam: e2e
description: "Work waiting in ${path}, so that pools compete for the cluster"
labels:
  - key: suite
    value: e2e
instanceCount: ${instances}
sla:
  priority: 0
  preemptible: true
defaultConfig:
  resource:
    cpuLimit: ${cpu}
    memLimitMb: 1024
    diskLimitMb: 1000
  command:
    value: "sleep 3600"
    environment:
      variables:
        - name: PELOTON_SIM_DURATION_MS
          value: "3600000"
  constraint:
    orConstraint:
      constraints:
${racks}
`;
}
