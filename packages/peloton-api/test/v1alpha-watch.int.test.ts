/**
 * v1alpha WatchService's filters over gRPC, fed by the change feed: stateless
 * jobs by id and by label (a job's change streamed as it happens, a missing
 * id answered as not found), a job's pods by label and by name (a missing
 * one answered as not found), and the refusals of a
 * start_revision that cannot be replayed and of a bad job id, naming the
 * field; a watch whose client went away, or that Cancel named, is closed on
 * the server.
 */
import { Code } from "@connectrpc/connect";
import { leafPool } from "@peloton/test-support/scheduler/system.ts";
import { resetDatabase } from "@peloton/test-support/storage/gateway.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { JobState } from "../src/generated/peloton/api/v1alpha/job/stateless/stateless_pb.ts";
import {
  type WatchResponse,
  WatchService,
} from "../src/generated/peloton/api/v1alpha/watch/svc/watch_svc_pb.ts";
import { grpcClient } from "./support/clients.ts";
import { refusal } from "./support/refusals.ts";
import { type Served, servePelotonApi } from "./support/servers.ts";

let served: Served;
beforeAll(async () => {
  served = await servePelotonApi();
});
afterAll(() => served.close());
beforeEach(() => resetDatabase());

const watch = () => grpcClient(served, WatchService);

async function serviceJob(pool: string, tier: string, instanceConfig = ""): Promise<string> {
  const { id } = await served.caller.jobs.create({
    yaml: `name: web-${tier}
type: SERVICE
instanceCount: 2
labels: [{ key: tier, value: ${tier} }]
respoolID: ${pool}
defaultConfig: { resource: { cpuLimit: 0.1, memLimitMb: 16 }, command: { value: "sleep 600" } }
${instanceConfig}`,
  });
  return id;
}

/** The first answer of a watch, then (after `act`) the answers until `until` holds. */
async function answers(
  stream: AsyncIterable<WatchResponse>,
  act: () => Promise<unknown>,
  until: (a: WatchResponse) => boolean,
): Promise<WatchResponse[]> {
  const seen: WatchResponse[] = [];
  for await (const answer of stream) {
    seen.push(answer);
    if (seen.length === 1) await act();
    else if (until(answer)) break;
  }
  return seen;
}

describe("v1alpha WatchService filters", () => {
  it("streams the stateless jobs a label selects, and the pods a label selects", async () => {
    const pool = await leafPool(served.context.gateway, "svc");
    const front = await serviceJob(pool, "front");
    const back = await serviceJob(pool, "back");
    const seen = await answers(
      watch().watch({ statelessJobFilter: { labels: [{ key: "tier", value: "front" }] } }),
      () => served.caller.jobs.stop({ id: front }),
      (a) => a.statelessJobs.some((j) => j.status?.desiredState === JobState.KILLED),
    );
    const [first, ...later] = seen;
    expect(first?.revision).toBe(1n);
    expect(first?.statelessJobs.map((j) => j.jobId?.value)).toEqual([front]);
    expect(later.at(-1)?.revision).toBe(BigInt(seen.length));
    // The other label's job never shows, however the feed announces it.
    for (const answer of seen)
      expect(answer.statelessJobs.map((j) => j.jobId?.value)).not.toContain(back);
    expect(
      later.at(-1)?.statelessJobs.map((j) => [j.jobId?.value, j.status?.desiredState]),
    ).toEqual([[front, JobState.KILLED]]);

    // By id: a missing job is answered as not found.
    const missing = "00000000-0000-4000-8000-000000000000";
    for await (const answer of watch().watch({
      statelessJobFilter: { jobIds: [{ value: back }, { value: missing }] },
    })) {
      expect(answer.statelessJobs.map((j) => j.jobId?.value)).toEqual([back]);
      expect(answer.statelessJobsNotFound.map((j) => j.value)).toEqual([missing]);
      break;
    }

    // Pods by label: only instance 1 carries role=canary (its instanceConfig's labels).
    const canary = await serviceJob(
      pool,
      "canary",
      "instanceConfig: { '1': { labels: [{ key: role, value: canary }] } }",
    );
    for await (const answer of watch().watch({
      podFilter: { jobId: { value: canary }, labels: [{ key: "role", value: "canary" }] },
    })) {
      expect(answer.pods.map((p) => p.podName?.value)).toEqual([`${canary}-1`]);
      break;
    }

    // Pods by name: one the job has no instance for is answered as not found.
    for await (const answer of watch().watch({
      podFilter: {
        jobId: { value: canary },
        podNames: [{ value: `${canary}-0` }, { value: `${canary}-7` }],
      },
    })) {
      expect(answer.pods.map((p) => p.podName?.value)).toEqual([`${canary}-0`]);
      expect(answer.podsNotFound.map((p) => p.value)).toEqual([`${canary}-7`]);
      break;
    }
    expect(served.internalErrors).toEqual([]);
  });

  it("refuses a start_revision it cannot replay and a bad job id, naming the field", async () => {
    const replay = await refusal(
      (async () => {
        for await (const _ of watch().watch({ startRevision: 5n, statelessJobFilter: {} })) break;
      })(),
    );
    expect(replay.code).toBe(Code.OutOfRange);
    expect(replay.message).toMatch(/^start_revision: /);
    expect(replay.message).toContain("start_revision 0");
    const badId = await refusal(
      (async () => {
        for await (const _ of watch().watch({
          statelessJobFilter: { jobIds: [{ value: "nope" }] },
        }))
          break;
      })(),
    );
    expect(badId.code).toBe(Code.InvalidArgument);
    expect(badId.message).toMatch(/^stateless_job_filter\.job_ids\[0\]\.value: /);
    const nothing = await refusal(
      (async () => {
        for await (const _ of watch().watch({})) break;
      })(),
    );
    expect(nothing.code).toBe(Code.InvalidArgument);
    expect(served.internalErrors).toEqual([]);
  });

  it("ends a watch on the server when its client goes away, and when Cancel names it", async () => {
    const pool = await leafPool(served.context.gateway, "svc");
    const job = await serviceJob(pool, "front");
    const noOpenWatch = async (watchId: string) => {
      const refused = await refusal(watch().cancel({ watchId }));
      expect(refused.code).toBe(Code.InvalidArgument);
      expect(refused.message).toMatch(/^watch_id: no open watch/);
    };

    // The client stops reading after the first answer: the call is cancelled.
    let left = "";
    for await (const answer of watch().watch({
      statelessJobFilter: { jobIds: [{ value: job }] },
    })) {
      left = answer.watchId;
      break;
    }
    await expect
      .poll(() =>
        noOpenWatch(left).then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);

    // Cancel ends the stream (the client's loop finishes) and closes the watch.
    let answered = 0;
    for await (const answer of watch().watch({
      statelessJobFilter: { jobIds: [{ value: job }] },
    })) {
      answered += 1;
      await watch().cancel({ watchId: answer.watchId });
      left = answer.watchId;
    }
    expect(answered).toBe(1);
    await noOpenWatch(left);
    expect(served.internalErrors).toEqual([]);
  });
});
