/** The required end-to-end story: `echo hello` through the client on mesos-sim. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSandboxFile } from "../src/index.ts";
import { client, shellTask, sim } from "./support/harness.ts";

describe("end to end: client → mesos-sim → a real process", () => {
  it("launches echo hello, sees RUNNING then FINISHED, acknowledges both, reads hello", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log, frameworkId } = await client(s);
    const [offer] = await log.offers();
    expect(offer).toBeDefined();

    await c.launch([offer!.id], [shellTask("hello-1", offer!.agent_id.value, "echo hello")]);

    const starting = await log.update("hello-1", "TASK_STARTING");
    await c.acknowledge(starting);
    const runningStatus = await log.update("hello-1", "TASK_RUNNING");
    expect(runningStatus.uuid).toBeDefined();
    await c.acknowledge(runningStatus);
    const finished = await log.update("hello-1", "TASK_FINISHED");
    expect(finished).toMatchObject({ source: "SOURCE_EXECUTOR", agent_id: offer!.agent_id });
    await c.acknowledge(finished);

    // Updates of one task arrive in order.
    expect(log.updates("hello-1").map((u) => u.state)).toEqual([
      "TASK_STARTING",
      "TASK_RUNNING",
      "TASK_FINISHED",
    ]);

    const sandbox = s.sandboxPath("hello-1");
    expect(sandbox).toBeDefined();
    expect(readFileSync(join(sandbox!, "stdout"), "utf8")).toBe("hello\n");

    // The same bytes over the files API, as a Mesos agent serves them.
    const res = await fetch(
      `${s.url}/files/read?path=${encodeURIComponent(join(sandbox!, "stdout"))}&offset=0`,
    );
    expect(await res.json()).toEqual({ data: "hello\n", offset: 0 });

    // Once the terminal update is acknowledged the master forgets the task.
    await expect.poll(() => s.tasks().length).toBe(0);

    // From any process, knowing only the agent's URL (from the offer) and the ids:
    // the agent's state gives the sandbox, its /files/read gives the bytes.
    const read = await readSandboxFile({ agent: offer!.url!, frameworkId, taskId: "hello-1" });
    expect(read).toEqual({ data: "hello\n", offset: 0, directory: sandbox });
    const size = await readSandboxFile({
      ...read,
      agent: offer!.url!,
      frameworkId,
      taskId: "hello-1",
      offset: -1,
    });
    expect(size.offset).toBe(6);
    const tail = await readSandboxFile({
      agent: offer!.url!,
      frameworkId,
      taskId: "hello-1",
      directory: read.directory,
      offset: 2,
      length: 2,
    });
    expect(tail.data).toBe("ll");
    await expect(
      readSandboxFile({ agent: offer!.url!, frameworkId, taskId: "no-such-task" }),
    ).rejects.toMatchObject({ kind: "not_found" });
  });

  it("reports a non-zero exit as TASK_FAILED and passes the environment", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s);
    const [offer] = await log.offers();
    const task = shellTask("env-1", offer!.agent_id.value, 'echo "$RUN_ID" >&2; exit 3', {
      command: {
        shell: true,
        value: 'echo "$RUN_ID" >&2; exit 3',
        environment: { variables: [{ name: "RUN_ID", value: "r-42" }] },
      },
    });
    await c.launch([offer!.id], [task]);
    for (const state of ["TASK_STARTING", "TASK_RUNNING"] as const) {
      await c.acknowledge(await log.update("env-1", state));
    }
    const failed = await log.update("env-1", "TASK_FAILED");
    expect(failed).toMatchObject({
      reason: "REASON_COMMAND_EXECUTOR_FAILED",
      message: "Command exited with status 3",
    });
    expect(readFileSync(join(s.sandboxPath("env-1")!, "stderr"), "utf8")).toBe("r-42\n");
  });
});
