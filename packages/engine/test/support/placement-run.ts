/** Runs placement on builders and reads the answer by task id. */
import { expect } from "vitest";
import {
  type PlacementHost,
  type PlacementOptions,
  type PlacementTask,
  placeTasks,
  type TaskPlacement,
  type UnplacedTask,
} from "../../src/index.ts";
import type { HostBuilder, TaskBuilder } from "./placement-builders.ts";

export interface Placed {
  readonly placements: readonly TaskPlacement[];
  readonly unplaced: readonly UnplacedTask[];
  readonly nextOffset: number;
  /** The host a task went to; undefined when it was not placed. */
  hostOf(taskId: string): string | undefined;
  placement(taskId: string): TaskPlacement;
  unplacedOf(taskId: string): UnplacedTask;
}

export function place(
  hosts: readonly (HostBuilder | PlacementHost)[],
  tasks: readonly (TaskBuilder | PlacementTask)[],
  options: PlacementOptions = {},
): Placed {
  const h = hosts.map((x) => ("build" in x ? x.build() : x));
  const t = tasks.map((x) => ("build" in x ? x.build() : x));
  const result = placeTasks(h, t, options);
  if (!result.ok) throw new Error(`invalid test input: ${JSON.stringify(result.errors)}`);
  const { placements, unplaced, nextOffset } = result;
  return {
    placements,
    unplaced,
    nextOffset,
    hostOf: (id) => placements.find((p) => p.taskId === id)?.hostname,
    placement: (id) => {
      const p = placements.find((x) => x.taskId === id);
      expect(p, `${id} placed`).toBeDefined();
      return p!;
    },
    unplacedOf: (id) => {
      const u = unplaced.find((x) => x.taskId === id);
      expect(u, `${id} not placed`).toBeDefined();
      return u!;
    },
  };
}

/** Sum of a task's rejection counts: every host once. */
export function rejectedHosts(u: UnplacedTask): number {
  return Object.values(u.rejections).reduce((a, b) => a + (b ?? 0), 0);
}
