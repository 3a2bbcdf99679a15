/**
 * The benchmark's Peloton client, on a thread of its own: its HTTP/2,
 * protobuf decoding and garbage are its own, as a client process's are,
 * instead of sharing the server's event loop and heap. It times the calls
 * the parent asks for (`ClientJob`) and posts back `ClientTimings`; a warm-up
 * of `warmUp` calls goes first, the first of them checked by the parent.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { JobManager } from "../src/generated/peloton/api/v0/job/job_pb.ts";
import { TaskManager } from "../src/generated/peloton/api/v0/task/task_pb.ts";

export interface ClientSetup {
  port: number;
  token: string;
}

export interface ClientJob {
  call: "get_job" | "list_tasks";
  jobId: string;
  calls: number;
  warmUp: number;
}

export interface ClientTimings {
  /** Each call's milliseconds, sorted ascending. */
  times: number[];
  /** What the first call answered, so the parent can check it was the right one. */
  answered: number;
}

const { port, token } = workerData as ClientSetup;
const transport = createGrpcTransport({
  baseUrl: `http://127.0.0.1:${port}`,
  interceptors: [
    (next) => (req) => {
      req.header.set("authorization", `Bearer ${token}`);
      return next(req);
    },
  ],
});
const jobs = createClient(JobManager, transport);
const tasks = createClient(TaskManager, transport);

/** The call, answering a number the parent checks: the job's instances, or the tasks listed. */
function callOf(job: ClientJob): () => Promise<number> {
  const id = { value: job.jobId };
  if (job.call === "get_job")
    return async () => (await jobs.get({ id })).jobInfo?.config?.instanceCount ?? -1;
  return async () => Object.keys((await tasks.list({ jobId: id })).result?.value ?? {}).length;
}

parentPort!.on("message", async (job: ClientJob) => {
  const call = callOf(job);
  const answered = await call();
  for (let i = 1; i < job.warmUp; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < job.calls; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  const result: ClientTimings = { times: times.sort((a, b) => a - b), answered };
  parentPort!.postMessage(result);
});

// Loaded: the parent's clock may start.
parentPort!.postMessage("ready");
