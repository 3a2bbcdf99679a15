/** Job files for the jobs and tasks API tests (pools: the scheduler tests' `leafPool`). */

/** A batch job file in Peloton's own lowercase spelling. */
export function batchYaml(
  opts: { name?: string; instances?: number; command?: string; cpu?: number } = {},
): string {
  return `name: ${opts.name ?? "hello"}
type: 0
instancecount: ${opts.instances ?? 3}
sla:
  priority: 5
  preemptible: true
defaultconfig:
  resource:
    cpulimit: ${opts.cpu ?? 0.5}
    memlimitmb: 64
  command:
    value: '${opts.command ?? "echo hello $PELOTON_INSTANCE_ID"}'
`;
}
