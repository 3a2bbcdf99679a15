/** A port a task was given: its configured name and env name, and the number it got. */
export interface AssignedPort {
  readonly name: string;
  readonly envName?: string | undefined;
  /** The static `value`, or the dynamic port picked from the host's offer. */
  readonly number: number;
}

export const PELOTON_JOB_ID = "PELOTON_JOB_ID";
export const PELOTON_INSTANCE_ID = "PELOTON_INSTANCE_ID";
export const PELOTON_TASK_ID = "PELOTON_TASK_ID";

/**
 * The variables Peloton adds to every task's command (peloton-semantics.md
 * §3; Peloton's task builder `populateCommandInfo` / `pickPorts`): the job,
 * instance and task ids, and for each port with an `envName` its number. A
 * port without an `envName` exports nothing, as in Peloton. These are added
 * after the job's own `command.environment`, so they win on a clash.
 */
export function taskEnvironment(
  jobId: string,
  instance: number,
  taskId: string,
  ports: readonly AssignedPort[] = [],
): Record<string, string> {
  const env: Record<string, string> = {
    [PELOTON_JOB_ID]: jobId,
    [PELOTON_INSTANCE_ID]: String(instance),
    [PELOTON_TASK_ID]: taskId,
  };
  for (const port of ports) if (port.envName) env[port.envName] = String(port.number);
  return env;
}
