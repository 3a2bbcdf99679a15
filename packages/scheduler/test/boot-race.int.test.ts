/**
 * Two replicas started together on one empty database (one that does not
 * even exist yet): both come up — database created once, migrated once,
 * demo data seeded once — and one of them leads.
 */
import { dropDatabase, formatDatabaseUrl, parseDatabaseUrl } from "@peloton/storage/bootstrap";
import { expect, inject, it } from "vitest";
import { bootSystem } from "../src/boot/index.ts";
import { log as logger, onCleanup, testSim } from "./support/cluster.ts";

it("two replicas started together on an empty database both come up", async () => {
  const sim = await testSim();
  const conn = {
    ...parseDatabaseUrl(inject("databaseUrl")),
    database: `peloton_race_${process.pid}_${Date.now().toString(36)}`,
  };
  onCleanup(() => dropDatabase(conn));
  const lines: string[] = [];
  const boot = () =>
    bootSystem({
      databaseUrl: formatDatabaseUrl(conn),
      dataDir: "",
      demo: true,
      log: (line) => lines.push(line),
      logger,
      masterUrl: sim.url,
    });
  const outcomes = await Promise.allSettled([boot(), boot()]);
  for (const o of outcomes) if (o.status === "fulfilled") onCleanup(() => o.value.stop());
  expect(outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : "up"))).toEqual([
    "up",
    "up",
  ]);
  const systems = outcomes.map(
    (o) => (o as PromiseFulfilledResult<Awaited<ReturnType<typeof boot>>>).value,
  );
  expect(systems.filter((s) => s.seeded)).toHaveLength(1);
  await expect
    .poll(() => systems.filter((s) => s.scheduler?.leading).length, { timeout: 10_000 })
    .toBe(1);
});
