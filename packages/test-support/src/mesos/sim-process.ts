/**
 * Runs mesos-sim in its own process for benchmarks, as a real master would
 * be: client and master then use a core each instead of sharing one event loop.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = resolve(here, "../../../..");
// The file `npm run mesos-sim` runs: a program to start, not a module to import.
const cli = resolve(repoRoot, "packages/mesos/src/sim/cli.ts");

export interface SimProcess {
  url: string;
  /** The master's process id (for its CPU time). */
  pid: number | undefined;
  stop(): Promise<void>;
}

export async function spawnSim(args: string[]): Promise<SimProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // Node flags for the sim alone (e.g. --cpu-prof); unset or empty, none.
      ...(process.env.MESOS_SIM_NODE_OPTIONS?.split(" ").filter(Boolean) ?? []),
      "--import",
      "tsx",
      cli,
      "--port",
      "0",
      "--quiet",
      ...args,
    ],
    {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const firstLine = await new Promise<string>((resolveLine, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => {
      lines.close();
      resolveLine(line);
    });
    child.once("exit", (code) =>
      reject(new Error(`mesos-sim exited with ${code} before listening`)),
    );
  });
  const { url } = JSON.parse(firstLine) as { url: string };
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}
