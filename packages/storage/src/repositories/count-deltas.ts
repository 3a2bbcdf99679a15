/**
 * What a set of task moves does to their jobs' task counts (`jobs.task_stats`):
 * per job and state, how many entered (+) or left (−). The task writer's
 * changes and the preemptor's recorded victims both fold their moves here.
 */
import type { TaskState } from "@peloton/engine";

export interface CountDelta {
  jobId: string;
  state: TaskState;
  delta: number;
}

export function countDeltasOf(
  moves: Iterable<{ jobId: string; from: TaskState; to: TaskState }>,
): CountDelta[] {
  const byKey = new Map<string, CountDelta>();
  const add = (jobId: string, state: TaskState, delta: number) => {
    const key = `${jobId} ${state}`;
    const d = byKey.get(key);
    if (d) d.delta += delta;
    else byKey.set(key, { jobId, state, delta });
  };
  for (const m of moves) {
    if (m.from === m.to) continue;
    add(m.jobId, m.from, -1);
    add(m.jobId, m.to, +1);
  }
  return [...byKey.values()].filter((d) => d.delta !== 0);
}
