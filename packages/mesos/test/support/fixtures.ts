/**
 * The Mesos fixtures, the contract of both suites. They are a copy of
 * shared/design/mesos-fixtures kept in the repository so a clone anywhere can
 * run the tests; fixtures-copy.test.ts fails when the copy drifts from the
 * shared originals (where those are present).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const testDir = resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
export const fixturesDir = resolve(testDir, "fixtures");
/** Where the shared design documents keep the originals, beside the checkout. */
export const sharedFixturesDir = resolve(testDir, "../../../../shared/design/mesos-fixtures");

export function fixtureBytes(name: string): Buffer {
  return readFileSync(resolve(fixturesDir, name));
}

/** A parsed JSON fixture, `name` without ".json". */
export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureBytes(`${name}.json`).toString("utf8")) as T;
}

/** Fixture JSON that a test edits freely (ids substituted, labels added). */
// biome-ignore lint/suspicious/noExplicitAny: raw protocol JSON, checked by the code under test
export type RawJson = any;
