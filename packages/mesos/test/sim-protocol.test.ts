/**
 * mesos-sim against the shared fixtures: it accepts every fixture call and
 * emits events of the fixture shapes, replaying the fixtures' story.
 */
import { describe, expect, it } from "vitest";
import type { AgentSpec, Event, TaskStatus } from "../src/index.ts";
import { fixture, type RawJson } from "./support/fixtures.ts";
import { sim } from "./support/harness.ts";
import { rawCall, rawSubscribe, shape } from "./support/raw-http.ts";

const MASTER = "5f0c7c2a-1d3e-4b7a-9a55-0c1d2e3f4a5b";
const S0 = `${MASTER}-S0`;
const S1 = `${MASTER}-S1`;

/** The two hosts of offers-event.json, as agent specs. */
const fixtureAgents: AgentSpec[] = [
  {
    id: S0,
    hostname: "gpu-node-1.example.test",
    resources: { cpus: 16, mem: 65536, disk: 200000, gpus: 4, ports: "31000-32000" },
    attributes: { gpu_model: "a100", zone: "us-east-1a", rack: 7 },
  },
  {
    id: S1,
    hostname: "cpu-node-1.example.test",
    resources: { cpus: 8, mem: 32768, disk: 100000, ports: "31000-32000" },
    attributes: { zone: "us-east-1b" },
  },
];

type Update = Extract<Event, { type: "UPDATE" }>;
const statusOf = (e: Event) => (e as Update).update.status;
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const withoutTimestamp = ({ timestamp: _t, ...rest }: TaskStatus) => rest;

/** The fixture ACCEPT, on `offerId`, with its two tasks simulated (no python on this host). */
function acceptFixture(offerId: string) {
  const call = clone(fixture<RawJson>("accept-launch-call"));
  call.accept.offer_ids = [{ value: offerId }];
  for (const task of call.accept.operations[0].launch.task_infos) {
    task.labels = {
      labels: [...(task.labels?.labels ?? []), { key: "PELOTON_SIM_DURATION_MS", value: "600000" }],
    };
  }
  return call;
}

async function subscribedStory() {
  const s = await sim({ agents: fixtureAgents, masterId: MASTER });
  const stream = await rawSubscribe(s.url, fixture("resubscribe-call"));
  const offers = (await stream.log.offers()) ?? [];
  return { s, stream, offers };
}

describe("mesos-sim replays the fixture story", () => {
  it("SUBSCRIBE → 200 + Mesos-Stream-Id → SUBSCRIBED, HEARTBEAT, OFFERS of the fixture shapes", async () => {
    const s = await sim({ agents: fixtureAgents, masterId: MASTER, heartbeatIntervalSeconds: 15 });
    const stream = await rawSubscribe(s.url, fixture("subscribe-call"));
    expect(stream.status).toBe(200);
    expect(stream.streamId).toMatch(/\S/);
    const [subscribed, heartbeat, offers] = await Promise.all([
      stream.log.waitFor((e) => e.type === "SUBSCRIBED"),
      stream.log.waitFor((e) => e.type === "HEARTBEAT"),
      stream.log.waitFor((e) => e.type === "OFFERS"),
    ]);
    expect(stream.log.events.slice(0, 2).map((e) => e.type)).toEqual(["SUBSCRIBED", "HEARTBEAT"]);
    expect(shape(subscribed)).toEqual(shape(fixture("subscribed-event")));
    expect(subscribed).toMatchObject({
      subscribed: { heartbeat_interval_seconds: 15, master_info: { ip: 16777343 } },
    });
    expect(heartbeat).toStrictEqual(fixture("heartbeat-event"));
    expect(shape(offers)).toEqual(shape(fixture("offers-event")));

    // Same hosts as the fixture: identical offers but for the ids and the agents' address.
    const norm = (e: RawJson, fid: string) => {
      for (const o of e.offers.offers) {
        o.id = "offer";
        o.framework_id = fid;
        o.url.address = "agent";
      }
      return e;
    };
    const fid = (subscribed as Extract<Event, { type: "SUBSCRIBED" }>).subscribed.framework_id
      .value;
    expect(norm(clone(offers), fid)).toStrictEqual(norm(fixture("offers-event"), fid));
  });

  it("ACCEPT (2 tasks) + DECLINE → UPDATE RUNNING → ACKNOWLEDGE → RECONCILE answered without uuid", async () => {
    const { s, stream, offers } = await subscribedStory();
    const gpu = offers.find((o) => o.agent_id.value === S0)!;
    const cpu = offers.find((o) => o.agent_id.value === S1)!;
    expect((await rawCall(s.url, acceptFixture(gpu.id.value), stream.streamId)).status).toBe(202);
    const decline = clone(fixture<RawJson>("decline-call"));
    decline.decline.offer_ids = [cpu.id];
    expect((await rawCall(s.url, decline, stream.streamId)).status).toBe(202);

    const starting = statusOf(
      await stream.log.waitFor(
        (e) => e.type === "UPDATE" && statusOf(e).task_id.value === "train-0001",
      ),
    );
    expect(starting.state).toBe("TASK_STARTING");
    const ack = clone(fixture<RawJson>("acknowledge-call"));
    ack.acknowledge.uuid = starting.uuid;
    expect((await rawCall(s.url, ack, stream.streamId)).status).toBe(202);

    const running = await stream.log.update("train-0001", "TASK_RUNNING");
    expect(shape({ type: "UPDATE", update: { status: running } })).toEqual(
      shape(fixture("update-running-event")),
    );
    ack.acknowledge.uuid = running.uuid;
    expect((await rawCall(s.url, ack, stream.streamId)).status).toBe(202);

    const mark = stream.log.events.length;
    expect((await rawCall(s.url, fixture("reconcile-call"), stream.streamId)).status).toBe(202);
    const known = await stream.log.waitFor(
      (e) =>
        e.type === "UPDATE" &&
        statusOf(e).reason === "REASON_RECONCILIATION" &&
        statusOf(e).task_id.value === "train-0001",
      { from: mark },
    );
    const ghost = await stream.log.waitFor(
      (e) => e.type === "UPDATE" && statusOf(e).task_id.value === "ghost-0009",
      {
        from: mark,
      },
    );
    const expectRunning = fixture<Update>("reconcile-answer-running-event").update.status;
    const expectUnknown = fixture<Update>("reconcile-answer-unknown-event").update.status;
    expect(withoutTimestamp(statusOf(known))).toStrictEqual(withoutTimestamp(expectRunning));
    expect(withoutTimestamp(statusOf(ghost))).toStrictEqual(withoutTimestamp(expectUnknown));

    // Implicit: one answer per task the master knows, none with a uuid.
    const mark2 = stream.log.events.length;
    expect((await rawCall(s.url, fixture("reconcile-implicit-call"), stream.streamId)).status).toBe(
      202,
    );
    await stream.log.waitFor(
      (e) => e.type === "UPDATE" && statusOf(e).task_id.value === "metrics-0001",
      { from: mark2 },
    );
    await stream.log.waitFor(
      (e) =>
        e.type === "UPDATE" &&
        statusOf(e).task_id.value === "train-0001" &&
        statusOf(e).reason === "REASON_RECONCILIATION",
      { from: mark2 },
    );
    const answers = stream.log.events
      .slice(mark2)
      .filter((e) => e.type === "UPDATE" && statusOf(e).reason === "REASON_RECONCILIATION");
    expect(answers.every((e) => statusOf(e).uuid === undefined)).toBe(true);

    // KILL (TASK_KILLING_STATE framework): KILLING then KILLED, each acknowledged in turn.
    expect((await rawCall(s.url, fixture("kill-call"), stream.streamId)).status).toBe(202);
    for (const state of ["TASK_STARTING", "TASK_RUNNING", "TASK_KILLING"] as const) {
      const st = statusOf(
        await stream.log.waitFor(
          (e) =>
            e.type === "UPDATE" &&
            statusOf(e).task_id.value === "metrics-0001" &&
            statusOf(e).state === state &&
            statusOf(e).uuid !== undefined,
        ),
      );
      const a = clone(ack);
      a.acknowledge.task_id = { value: "metrics-0001" };
      a.acknowledge.uuid = st.uuid;
      expect((await rawCall(s.url, a, stream.streamId)).status).toBe(202);
    }
    await stream.log.update("metrics-0001", "TASK_KILLED");
  });

  it("stream dropped → calls answered 403 → re-SUBSCRIBE → unacknowledged updates delivered again", async () => {
    const { s, stream, offers } = await subscribedStory();
    const gpu = offers.find((o) => o.agent_id.value === S0)!;
    await rawCall(s.url, acceptFixture(gpu.id.value), stream.streamId);
    const starting = await stream.log.update("train-0001", "TASK_STARTING");
    stream.close();
    await stream.ended;
    await expect
      .poll(
        async () =>
          (await rawCall(s.url, fixture("reconcile-implicit-call"), stream.streamId)).status,
      )
      .toBe(403);

    const again = await rawSubscribe(s.url, fixture("resubscribe-call"));
    expect(again.streamId).not.toBe(stream.streamId);
    const redelivered = await again.log.update("train-0001", "TASK_STARTING");
    expect(redelivered.uuid).toBe(starting.uuid);
    // The old stream id is now wrong: 400.
    const stale = await rawCall(s.url, fixture("reconcile-implicit-call"), stream.streamId);
    expect(stale.status).toBe(400);
    expect(stale.text).toMatch(/didn't match the stream ID/);
  });

  it("a second subscriber: the first stream gets the fixture ERROR and is closed", async () => {
    const { s, stream } = await subscribedStory();
    await rawSubscribe(s.url, fixture("resubscribe-call"));
    const error = await stream.log.waitFor((e) => e.type === "ERROR");
    expect(error).toStrictEqual(fixture("error-event"));
    await stream.ended;
  });

  it("RESCIND, an invalid offer's TASK_DROPPED, and FAILURE have the fixture shapes", async () => {
    const { s, stream, offers } = await subscribedStory();
    const cpu = offers.find((o) => o.agent_id.value === S1)!;
    s.rescindOffers(S1);
    const rescind = await stream.log.waitFor((e) => e.type === "RESCIND");
    expect(shape(rescind)).toEqual(shape(fixture("rescind-event")));
    expect(rescind).toStrictEqual({ type: "RESCIND", rescind: { offer_id: cpu.id } });

    const call = acceptFixture(cpu.id.value);
    call.accept.operations[0].launch.task_infos = [
      {
        ...call.accept.operations[0].launch.task_infos[1],
        task_id: { value: "web-0001" },
        agent_id: { value: S1 },
      },
    ];
    expect((await rawCall(s.url, call, stream.streamId)).status).toBe(202);
    const dropped = statusOf(
      await stream.log.waitFor(
        (e) => e.type === "UPDATE" && statusOf(e).task_id.value === "web-0001",
      ),
    );
    const expected = fixture<Update>("invalid-offer-dropped-event").update.status;
    expect(withoutTimestamp(dropped)).toStrictEqual({
      ...withoutTimestamp(expected),
      message: `Task launched with invalid offers: Offer ${cpu.id.value} is no longer valid`,
    });

    s.removeAgent(S1);
    const failure = await stream.log.waitFor((e) => e.type === "FAILURE");
    expect(shape(failure)).toEqual(shape(fixture("failure-event")));
    expect(failure).toStrictEqual({ type: "FAILURE", failure: { agent_id: { value: S1 } } });
  });

  it("accepts the fixture CREATE of a persistent volume (after a RESERVE)", async () => {
    const volumeFid = fixture<RawJson>("create-volume-call").framework_id.value;
    const s = await sim({ agents: 1 });
    const stream = await rawSubscribe(s.url, {
      type: "SUBSCRIBE",
      framework_id: { value: volumeFid },
      subscribe: {
        framework_info: {
          id: { value: volumeFid },
          user: "peloton",
          name: "peloton",
          roles: ["peloton"],
          capabilities: [{ type: "MULTI_ROLE" }],
        },
      },
    });
    const [offer] = await stream.log.offers();
    const reserve = {
      type: "ACCEPT",
      framework_id: { value: volumeFid },
      accept: {
        offer_ids: [offer!.id],
        operations: [
          {
            type: "RESERVE",
            reserve: {
              resources: [
                {
                  name: "disk",
                  type: "SCALAR",
                  scalar: { value: 1024 },
                  role: "peloton",
                  reservations: [{ type: "DYNAMIC", role: "peloton", principal: "peloton" }],
                },
              ],
            },
          },
        ],
        filters: { refuse_seconds: 0 },
      },
    };
    const mark = stream.log.events.length;
    expect((await rawCall(s.url, reserve, stream.streamId)).status).toBe(202);
    const [reserved] = await stream.log.offers({ from: mark });
    expect(reserved!.resources!.some((r) => r.role === "peloton" && r.name === "disk")).toBe(true);

    const create = clone(fixture<RawJson>("create-volume-call"));
    create.accept.offer_ids = [reserved!.id];
    create.accept.filters = { refuse_seconds: 0 };
    const mark2 = stream.log.events.length;
    expect((await rawCall(s.url, create, stream.streamId)).status).toBe(202);
    const [withVolume] = await stream.log.offers({ from: mark2 });
    const volume = withVolume!.resources!.find((r) => r.disk?.persistence !== undefined);
    expect(volume).toMatchObject({
      name: "disk",
      scalar: { value: 1024 },
      role: "peloton",
      disk: { persistence: { id: "vol-job-b-0" }, volume: { container_path: "data", mode: "RW" } },
    });
  });
});
