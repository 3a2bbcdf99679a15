/**
 * `placeTasks` (task classes, cached static filters, remembered failures,
 * windows, flat arrays) against the obvious reference (test/support/
 * reference-placement.ts) on small random clusters where everything happens.
 */
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../bench/harness.ts";
import { placeTasks } from "../src/index.ts";
import { randomPlacement } from "./support/random-placement.ts";
import { ReferenceCluster } from "./support/reference-placement.ts";

const seeds = Array.from({ length: 16 }, (_, i) => i + 1);

describe("scoring every feasible host: identical to the reference", () => {
  it.each(seeds)("seed %i", (seed) => {
    const { hosts, tasks } = randomPlacement(seededRandom(seed), {
      hosts: 24,
      tasks: 160,
      gangs: true,
    });
    const result = placeTasks(hosts, tasks, { hostsToScore: 1000 });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const want = new ReferenceCluster(hosts).placeAll(tasks);
    expect(result.placements.length + result.unplaced.length).toBe(tasks.length);
    expect(
      result.placements.map((p) => ({
        taskId: p.taskId,
        hostname: p.hostname,
        ports: p.ports,
        total: p.score.total,
      })),
    ).toEqual(want.placements);
    expect(
      result.unplaced.map((u) => ({
        taskId: u.taskId,
        reason: u.reason,
        rejections: u.rejections,
        ...(u.gang ? { gang: u.gang } : {}),
      })),
    ).toEqual(want.unplaced);
    // The cases must exercise what they claim to.
    expect(result.placements.length).toBeGreaterThan(0);
    expect(result.unplaced.length).toBeGreaterThan(0);
  });
});

describe("scoring a few hosts: every choice feasible, every failure true and fully counted", () => {
  it.each(seeds)("seed %i", (seed) => {
    const { hosts, tasks } = randomPlacement(seededRandom(seed * 31), {
      hosts: 30,
      tasks: 200,
      gangs: false,
    });
    const result = placeTasks(hosts, tasks, { hostsToScore: 3, startOffset: seed });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const ref = new ReferenceCluster(hosts);
    const placed = new Map(result.placements.map((p) => [p.taskId, p]));
    const unplaced = new Map(result.unplaced.map((u) => [u.taskId, u]));
    for (const t of tasks) {
      const p = placed.get(t.taskId);
      if (p) {
        const i = ref.hosts.findIndex((h) => h.hostname === p.hostname);
        expect(ref.rejection(t, i), `${t.taskId} on ${p.hostname}`).toBeNull();
        expect(ref.commit(t, i).ports).toEqual(p.ports);
      } else {
        const u = unplaced.get(t.taskId)!;
        expect(ref.choose(t), `${t.taskId} really fits nowhere`).toBe(-1);
        expect(u.rejections).toEqual(ref.rejections(t));
      }
    }
  });
});
