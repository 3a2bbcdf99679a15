/** A scheduler replica in a child process (scheduler-process.ts), for tests that kill it with SIGKILL. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { onCleanup } from "@peloton/test-support/scheduler/sim.ts";
import { inject } from "vitest";

const SCRIPT = fileURLToPath(new URL("./scheduler-process.ts", import.meta.url));

/** Starts the replica; resolves once it leads. */
export async function replicaProcess(name: string, masterUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT], {
    env: {
      ...process.env,
      DATABASE_URL: inject("databaseUrl"),
      MESOS_MASTER_URL: masterUrl,
      PELOTON_REPLICA: name,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
    }
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("leading")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}) before leading`)));
  });
  return child;
}
