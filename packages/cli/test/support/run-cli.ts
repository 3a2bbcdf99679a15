/** The real `peloton` binary, run as a user would, against a served API. */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";

export const BIN = resolve(import.meta.dirname, "../../bin/peloton.mjs");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `peloton ...args` with PELOTON_URL pointing at `url`; never throws. */
export function runCli(url: string, ...args: string[]): Promise<Run> {
  return promisify(execFile)(process.execPath, [BIN, ...args], {
    env: { ...process.env, PELOTON_URL: url },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      stdout: err.stdout,
      stderr: err.stderr,
    }),
  );
}

/** Fails with one line on stderr, as every error of the CLI does. */
export function expectOneLineError(run: Run, text: string | RegExp): void {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("");
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^peloton: /);
  expect(lines[0]).toMatch(text);
}
