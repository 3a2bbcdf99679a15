/**
 * `mesos-sim` as its own OS process (the CLI), so a test can kill it with
 * SIGKILL: a real process-level crash, not a polite stop().
 */
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = resolve(here, "../../../..");
// The file `npm run mesos-sim` runs: a program to start, not a module to import.
const cli = resolve(repoRoot, "packages/mesos/src/sim/cli.ts");

export interface SimCli {
  url: string;
  sandboxRoot: string;
  checkpointing: boolean;
  recovered: { agents: number; frameworks: number; tasks: number; killed: number } | undefined;
  child: ChildProcess;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
  stderr: () => string;
}

export async function startSimCli(args: string[]): Promise<SimCli> {
  const child = spawn(process.execPath, ["--import", "tsx", cli, "--port", "0", ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const line = await new Promise<string>((resolveLine, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (l) => {
      lines.close();
      resolveLine(l);
    });
    child.once("exit", (code) => reject(new Error(`mesos-sim exited (${code}): ${err}`)));
  });
  const info = JSON.parse(line) as Omit<SimCli, "child" | "exited" | "stderr">;
  return { ...info, child, exited, stderr: () => err };
}
