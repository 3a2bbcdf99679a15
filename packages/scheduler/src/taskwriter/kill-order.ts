/**
 * A kill to send once the KILLING state is committed. The goal-state loop,
 * status updates and the preemptor write that state through the task writer
 * and hand the order to the job manager's killer, which asks the host
 * manager; it lives here, beside the writes it follows, so the preemptor
 * need not import the job manager.
 */
export interface KillOrder {
  taskId: string;
  jobId: string;
  instanceId: number;
  clusterTaskId: string;
  agentId: string | null;
}
