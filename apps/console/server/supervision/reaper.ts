/**
 * The launcher's reaper: a small process that outlives the launcher only to
 * stop what the launcher started when the launcher dies, even by kill -9.
 *
 * Linux can tell a child that its parent died (prctl PR_SET_PDEATHSIG), but
 * Node cannot ask for it, and PostgreSQL and next-server would not ask
 * either. A pipe does the same job portably: the launcher holds the write end
 * of this process's stdin and never closes it; the kernel closes it when the
 * launcher exits for any reason, and the EOF is the signal. The launcher
 * writes one JSON line per child it starts or stops:
 *
 *   {"watch":{"kind":"postgres","pid":123,"startTime":456}}
 *   {"forget":123}
 *
 * On EOF the children still watched are stopped: PostgreSQL with a fast
 * shutdown (SIGINT, then SIGQUIT, then SIGKILL), the console's process group
 * with SIGTERM, then SIGKILL. After a clean stop the launcher has forgotten
 * them all and this process just exits. It runs in its own process group,
 * so a Ctrl-C meant for the launcher does not end it first.
 *
 * Task processes are not the launcher's: they belong to mesos-sim's agents
 * and are never watched here.
 */
import { createInterface } from "node:readline";
import {
  POSTGRES_STOP,
  type ProcessRef,
  stillRunning,
  stopProcess,
} from "@peloton/storage/processes";
import { type ChildKind, type ReaperMessage, STOP_CONSOLE } from "./protocol.ts";

// The launcher's terminal may be gone with it: a note that cannot be written
// (EPIPE) must not end this process before it has stopped the children.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

const watched = new Map<number, { kind: ChildKind; ref: ProcessRef }>();
const launcherPid = process.ppid;

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  let msg: ReaperMessage;
  try {
    msg = JSON.parse(line) as ReaperMessage;
  } catch {
    return;
  }
  if ("watch" in msg) watched.set(msg.watch.pid, { kind: msg.watch.kind, ref: msg.watch });
  else watched.delete(msg.forget);
});

lines.on("close", () => {
  void reap().then(() => process.exit(0));
});

async function reap(): Promise<void> {
  // After a clean stop they are gone already (or forgotten): nothing to say.
  const left = [...watched.values()].filter((c) => stillRunning(c.ref));
  if (left.length === 0) return;
  const names = left.map((c) => `${c.kind} (pid ${c.ref.pid})`).join(", ");
  process.stderr.write(`[peloton] the launcher (pid ${launcherPid}) is gone: stopping ${names}\n`);
  // The console first, so nothing is served from a database about to stop.
  const consoles = left.filter((c) => c.kind === "console");
  await Promise.all(consoles.map((c) => stopProcess(c.ref, STOP_CONSOLE, { group: true })));
  const servers = left.filter((c) => c.kind === "postgres");
  await Promise.all(servers.map((c) => stopProcess(c.ref, POSTGRES_STOP)));
}
