import { FINISHED_TASK_STATES } from "@peloton/engine";
import type { DbOrTx } from "../tx.ts";

/**
 * What the host manager reconciles: the runs the cluster may still have.
 * (State changes themselves are written in bulk by `taskChanges`.)
 */
export function taskStatusRepository(db: DbOrTx) {
  return {
    /** Runs the cluster may still have: a cluster task id and a state that is not terminal. */
    async unfinished(): Promise<{ clusterTaskId: string; agentId: string | null }[]> {
      const rows = await db.$queryRaw<{ mesos_task_id: string; agent_id: string | null }[]>`
        SELECT mesos_task_id, agent_id FROM tasks
        WHERE mesos_task_id IS NOT NULL
          AND NOT (state::text = ANY(${[...FINISHED_TASK_STATES]}::text[]))`;
      return rows.map((r) => ({ clusterTaskId: r.mesos_task_id, agentId: r.agent_id }));
    },
  };
}
