/**
 * The job a new user starts from: Peloton's job YAML (its own lowercase
 * spelling works too), a small batch job whose instances print a line and
 * finish, with the fields people change first.
 */
export const STARTER_JOB_YAML = `# A batch job: each instance runs the command once and succeeds.
# Keys as in Peloton's job files (camelCase or all-lowercase).
name: hello-world
type: BATCH            # BATCH, SERVICE, STATEFUL or DAEMON
owningTeam: my-team
description: "Prints a line from every instance"
labels:
  - key: team
    value: my-team
instanceCount: 4
sla:
  priority: 1
  preemptible: true
defaultConfig:
  resource:
    cpuLimit: 0.5       # cores
    memLimitMb: 128
    diskLimitMb: 64
  command:
    shell: true
    value: 'echo "hello from instance $PELOTON_INSTANCE_ID" && sleep 5'
`;
