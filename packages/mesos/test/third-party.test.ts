/**
 * Schedulers written from the Mesos documentation alone (scheduler-http-api.md,
 * recordio.md): one in Python's standard library against `npm run mesos-sim`
 * as its own process, one with raw `node:http` and a hand-written RecordIO
 * reader against an in-process sim. Neither uses anything of this package.
 */
import { execFile, spawn } from "node:child_process";
import http from "node:http";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { RawJson } from "./support/fixtures.ts";
import { onCleanup, sim } from "./support/harness.ts";

type Json = RawJson;

/** "record-size LF record-data", read with a line-then-bytes loop like the docs' pseudo-code. */
function recordIoReader(onRecord: (json: Json) => void): (chunk: Buffer) => void {
  let buffer = Buffer.alloc(0);
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const newline = buffer.indexOf(0x0a);
      if (newline < 0) return;
      const length = Number.parseInt(buffer.subarray(0, newline).toString("ascii"), 10);
      if (buffer.length < newline + 1 + length) return;
      onRecord(JSON.parse(buffer.subarray(newline + 1, newline + 1 + length).toString("utf8")));
      buffer = buffer.subarray(newline + 1 + length);
    }
  };
}

function post(
  port: number,
  body: Json,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/v1/scheduler",
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const repoRoot = resolve(import.meta.dirname, "../../..");
const pythonScheduler = resolve(import.meta.dirname, "third-party/docs_scheduler.py");

/** `npm run mesos-sim` as a user types it; resolves with its URL once it listens. */
async function npmRunMesosSim(args: string[]): Promise<string> {
  const child = spawn("npm", ["run", "-s", "mesos-sim", "--", ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  onCleanup(
    () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        // npm, its shell and the sim share a process group.
        process.kill(-child.pid!, "SIGTERM");
      }),
  );
  const line = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once("line", ok);
    child.once("exit", (code) => fail(new Error(`mesos-sim exited with ${code}`)));
  });
  return (JSON.parse(line) as { url: string }).url;
}

describe("a third-party scheduler written from the Mesos docs", () => {
  it("in Python: subscribes to `npm run mesos-sim`, launches echo hello, acks, reads stdout from the agent", async () => {
    const url = await npmRunMesosSim(["--port", "0", "--agents", "1", "--quiet"]);
    const { stdout } = await promisify(execFile)("python3", [pythonScheduler, url], {
      timeout: 30_000,
    });
    const seen = JSON.parse(stdout) as Record<string, unknown>;
    expect(seen).toMatchObject({
      accept_status: 202,
      states: ["TASK_STARTING", "TASK_RUNNING", "TASK_FINISHED"],
      acknowledged: 3,
      stdout: "hello\n",
    });
    expect((seen.event_types as string[]).slice(0, 3)).toEqual([
      "SUBSCRIBED",
      "HEARTBEAT",
      "OFFERS",
    ]);
  }, 40_000);

  it("subscribes, gets offers, launches, receives and acknowledges updates", async () => {
    const s = await sim({ agents: 1 });
    const events: Json[] = [];
    const waiters: Array<() => void> = [];
    const until = async (pred: (e: Json) => boolean): Promise<Json> => {
      for (;;) {
        const hit = events.find(pred);
        if (hit) return hit;
        await new Promise<void>((r) => waiters.push(r));
      }
    };

    // SUBSCRIBE: the response is a chunked 200 that stays open.
    const subscribe = http.request({
      host: "127.0.0.1",
      port: s.port,
      path: "/api/v1/scheduler",
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        Connection: "close",
      },
    });
    onCleanup(() => {
      subscribe.destroy();
    });
    const response = await new Promise<http.IncomingMessage>((resolve) => {
      subscribe.on("response", resolve);
      subscribe.end(
        JSON.stringify({
          type: "SUBSCRIBE",
          subscribe: { framework_info: { user: "foo", name: "Example HTTP Framework" } },
        }),
      );
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["transfer-encoding"]).toBe("chunked");
    const streamId = response.headers["mesos-stream-id"] as string;
    expect(streamId).toBeTruthy();
    response.on(
      "data",
      recordIoReader((e) => {
        events.push(e);
        for (const w of waiters.splice(0)) w();
      }),
    );

    const subscribed = await until((e) => e.type === "SUBSCRIBED");
    const frameworkId = subscribed.subscribed.framework_id.value as string;
    expect(subscribed.subscribed.heartbeat_interval_seconds).toBeGreaterThan(0);
    await until((e) => e.type === "HEARTBEAT");
    const offer = (await until((e) => e.type === "OFFERS")).offers.offers[0];
    expect(offer.resources.find((r: Json) => r.name === "cpus").scalar.value).toBeGreaterThan(0);

    // Calls go on other connections, with the stream id.
    const headers = { "Mesos-Stream-Id": streamId };
    const accepted = await post(
      s.port,
      {
        framework_id: { value: frameworkId },
        type: "ACCEPT",
        accept: {
          offer_ids: [offer.id],
          operations: [
            {
              type: "LAUNCH",
              launch: {
                task_infos: [
                  {
                    name: "my-task",
                    task_id: { value: "12220-3440-12532-my-task" },
                    agent_id: offer.agent_id,
                    resources: [
                      { name: "cpus", type: "SCALAR", scalar: { value: 0.1 } },
                      { name: "mem", type: "SCALAR", scalar: { value: 32 } },
                    ],
                    command: { value: "echo docs" },
                  },
                ],
              },
            },
          ],
          filters: { refuse_seconds: 5.0 },
        },
      },
      headers,
    );
    expect(accepted.status).toBe(202);

    // Acknowledge each update that has a uuid, until the task finishes.
    const acked = new Set<string>();
    for (;;) {
      const update = await until(
        (e) =>
          e.type === "UPDATE" &&
          e.update.status.uuid !== undefined &&
          !acked.has(e.update.status.uuid),
      );
      const status = update.update.status;
      acked.add(status.uuid);
      const ack = await post(
        s.port,
        {
          framework_id: { value: frameworkId },
          type: "ACKNOWLEDGE",
          acknowledge: { agent_id: status.agent_id, task_id: status.task_id, uuid: status.uuid },
        },
        headers,
      );
      expect(ack.status).toBe(202);
      if (status.state === "TASK_FINISHED") break;
    }
    const states = events.filter((e) => e.type === "UPDATE").map((e) => e.update.status.state);
    expect(states).toEqual(["TASK_STARTING", "TASK_RUNNING", "TASK_FINISHED"]);

    // A call without the stream id is refused with 400, as documented.
    const noStream = await post(s.port, { framework_id: { value: frameworkId }, type: "REVIVE" });
    expect(noStream.status).toBe(400);
  });
});
