/**
 * Vitest global setup of the integration project: one migrated scratch
 * database for the run, dropped at the end. Tests read its URL with
 * `inject("databaseUrl")`.
 */
import type { TestProject } from "vitest/node";
import { createScratchDatabase } from "./scratch-database.ts";
import "./provided-context.ts";

export default async function setup(project: TestProject) {
  const db = await createScratchDatabase("peloton_test");
  project.provide("databaseUrl", db.url);
  return async () => {
    await db.dispose();
  };
}
