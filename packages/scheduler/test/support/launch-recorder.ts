/**
 * A recording proxy in front of a Mesos master: every ACCEPT the master
 * accepted (202) is noted with the task ids it launched. mesos-sim forgets a
 * task once it ended, so "launched twice" is judged on this record of every
 * launch the master ever took, not on the tasks it holds now.
 */
import { createServer, type IncomingMessage, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface LaunchRecorder {
  /** Point the scheduler here instead of at the master. */
  url: string;
  /** Task ids in the order the master accepted their launches (repeats kept). */
  launched: string[];
  close(): Promise<void>;
}

interface AcceptCall {
  type?: string;
  accept?: {
    operations?: Array<{
      launch?: { task_infos?: Array<{ task_id?: { value?: string } }> };
      launch_group?: { task_group?: { tasks?: Array<{ task_id?: { value?: string } }> } };
    }>;
  };
}

function launchedBy(body: string): string[] {
  let call: AcceptCall;
  try {
    call = JSON.parse(body) as AcceptCall;
  } catch {
    return [];
  }
  if (call.type !== "ACCEPT") return [];
  const ids: string[] = [];
  for (const op of call.accept?.operations ?? []) {
    for (const t of op.launch?.task_infos ?? []) if (t.task_id?.value) ids.push(t.task_id.value);
    for (const t of op.launch_group?.task_group?.tasks ?? [])
      if (t.task_id?.value) ids.push(t.task_id.value);
  }
  return ids;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function recordLaunches(masterUrl: string): Promise<LaunchRecorder> {
  const target = new URL(masterUrl);
  const launched: string[] = [];
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        if (answer.statusCode === 202) launched.push(...launchedBy(body.toString("utf8")));
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        // SUBSCRIBE answers with a stream: pass it on as it comes.
        answer.pipe(res);
        res.on("close", () => answer.destroy());
      },
    );
    upstream.on("error", () => res.destroy());
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    launched,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
