/**
 * The client produces exactly the fixture JSON of each call, both from the
 * pure builders and on the wire (a recording master captures the bodies).
 */
import { describe, expect, it } from "vitest";
import {
  type Call,
  calls,
  type FrameworkInfo,
  MesosError,
  MesosSchedulerClient,
  type OfferOperation,
  type TaskStatus,
} from "../src/index.ts";
import { fixture } from "./support/fixtures.ts";
import { onCleanup } from "./support/harness.ts";
import { startRecordingMaster } from "./support/recording-master.ts";

const FID = "5f0c7c2a-1d3e-4b7a-9a55-0c1d2e3f4a5b-0000";
const subscribeFixture = fixture<{ subscribe: { framework_info: FrameworkInfo } }>(
  "subscribe-call",
);
const info = subscribeFixture.subscribe.framework_info;
const accept = fixture<Extract<Call, { type: "ACCEPT" }>>("accept-launch-call");
const running = fixture<{ update: { status: TaskStatus } }>("update-running-event").update.status;
const createVolume = fixture<Extract<Call, { type: "ACCEPT" }>>("create-volume-call");

describe("call builders match the fixtures", () => {
  it("SUBSCRIBE and re-SUBSCRIBE", () => {
    expect(calls.subscribeCall(info, undefined, [])).toStrictEqual(fixture("subscribe-call"));
    expect(calls.subscribeCall(info, FID)).toStrictEqual(fixture("resubscribe-call"));
  });

  it("ACCEPT with LAUNCH, DECLINE, KILL, ACKNOWLEDGE", () => {
    const ops = accept.accept.operations as OfferOperation[];
    const tasks = ops[0]?.type === "LAUNCH" ? ops[0].launch.task_infos : [];
    expect(
      calls.acceptCall(
        FID,
        ["5f0c7c2a-1d3e-4b7a-9a55-0c1d2e3f4a5b-O1"],
        [calls.launchOperation(tasks)],
        {
          refuse_seconds: 5,
        },
      ),
    ).toStrictEqual(accept);
    expect(
      calls.declineCall(FID, ["5f0c7c2a-1d3e-4b7a-9a55-0c1d2e3f4a5b-O2"], { refuse_seconds: 60 }),
    ).toStrictEqual(fixture("decline-call"));
    expect(
      calls.killCall(FID, "metrics-0001", "5f0c7c2a-1d3e-4b7a-9a55-0c1d2e3f4a5b-S0"),
    ).toStrictEqual(fixture("kill-call"));
    expect(calls.acknowledgeCall(FID, running)).toStrictEqual(fixture("acknowledge-call"));
  });

  it("explicit and implicit RECONCILE", () => {
    expect(
      calls.reconcileCall(FID, [
        { taskId: "train-0001", agentId: "5f0c7c2a-1d3e-4b7a-9a55-0c1d2e3f4a5b-S0" },
        { taskId: "ghost-0009" },
      ]),
    ).toStrictEqual(fixture("reconcile-call"));
    expect(calls.reconcileCall(FID)).toStrictEqual(fixture("reconcile-implicit-call"));
  });

  it("CREATE of a persistent volume", () => {
    const op = createVolume.accept.operations?.[0];
    const volumes = op?.type === "CREATE" ? op.create.volumes : [];
    expect(
      calls.acceptCall(
        createVolume.framework_id!.value,
        ["offer-1"],
        [{ type: "CREATE", create: { volumes } }],
      ),
    ).toStrictEqual(createVolume);
  });

  it("master-generated updates (no uuid) are not acknowledged", () => {
    const answer = fixture<{ update: { status: TaskStatus } }>("reconcile-answer-running-event")
      .update.status;
    expect(calls.needsAcknowledgement(answer)).toBe(false);
    expect(calls.needsAcknowledgement(running)).toBe(true);
    expect(() => calls.acknowledgeCall(FID, answer)).toThrow(TypeError);
  });

  it("REVIVE/SUPPRESS send roles as a list; MESSAGE data is base64", () => {
    expect(calls.reviveCall(FID, ["ml"])).toStrictEqual({
      type: "REVIVE",
      framework_id: { value: FID },
      revive: { roles: ["ml"] },
    });
    expect(calls.suppressCall(FID)).toStrictEqual({
      type: "SUPPRESS",
      framework_id: { value: FID },
    });
    expect(calls.messageCall(FID, "a", "e", "hi").message.data).toBe("aGk=");
  });
});

describe("the client on the wire", () => {
  async function connect(opts: { frameworkId?: string; suppressedRoles?: string[] } = {}) {
    const master = await startRecordingMaster({ frameworkId: FID, streamId: "stream-42" });
    onCleanup(() => master.stop());
    const client = new MesosSchedulerClient({ master: master.url, frameworkInfo: info, ...opts });
    onCleanup(() => client.stop());
    const subscribed = await client.start();
    return { master, client, subscribed };
  }

  it("sends SUBSCRIBE exactly as the fixture, and emits the framework id to persist", async () => {
    const { master, subscribed } = await connect({ suppressedRoles: [] });
    expect(master.subscribes[0]?.body).toStrictEqual(fixture("subscribe-call"));
    expect(master.subscribes[0]?.headers["content-type"]).toBe("application/json");
    expect(master.subscribes[0]?.headers.accept).toBe("application/json");
    expect(subscribed).toMatchObject({
      frameworkId: FID,
      streamId: "stream-42",
      resubscribed: false,
    });
  });

  it("re-subscribes with a persisted framework id exactly as the fixture, then reconciles", async () => {
    const { master, subscribed } = await connect({ frameworkId: FID });
    expect(master.subscribes[0]?.body).toStrictEqual(fixture("resubscribe-call"));
    expect(subscribed.resubscribed).toBe(true);
    const [reconcile] = await master.waitForCalls(1);
    expect(reconcile?.body).toStrictEqual(fixture("reconcile-implicit-call"));
  });

  it("sends every call with the Mesos-Stream-Id header and the fixture JSON", async () => {
    const { master, client } = await connect({ suppressedRoles: [] });
    const ops = accept.accept.operations as OfferOperation[];
    const tasks = ops[0]?.type === "LAUNCH" ? ops[0].launch.task_infos : [];
    await client.launch(["5f0c7c2a-1d3e-4b7a-9a55-0c1d2e3f4a5b-O1"], tasks, { refuse_seconds: 5 });
    await client.decline(["5f0c7c2a-1d3e-4b7a-9a55-0c1d2e3f4a5b-O2"], { refuse_seconds: 60 });
    await client.acknowledge(running);
    await client.reconcile([
      { taskId: "train-0001", agentId: "5f0c7c2a-1d3e-4b7a-9a55-0c1d2e3f4a5b-S0" },
      { taskId: "ghost-0009" },
    ]);
    await client.reconcile();
    await client.kill("metrics-0001", "5f0c7c2a-1d3e-4b7a-9a55-0c1d2e3f4a5b-S0");
    // Not acknowledged: a master-generated update.
    await client.acknowledge(
      fixture<{ update: { status: TaskStatus } }>("reconcile-answer-unknown-event").update.status,
    );
    expect(master.calls.map((c) => c.body)).toStrictEqual([
      accept,
      fixture("decline-call"),
      fixture("acknowledge-call"),
      fixture("reconcile-call"),
      fixture("reconcile-implicit-call"),
      fixture("kill-call"),
    ]);
    for (const c of master.calls) {
      expect(c.headers["mesos-stream-id"]).toBe("stream-42");
      expect(c.headers["content-type"]).toBe("application/json");
    }
  });

  it("completes more concurrent calls than it has sockets (each 202 body is drained)", async () => {
    const master = await startRecordingMaster({ frameworkId: FID });
    onCleanup(() => master.stop());
    const client = new MesosSchedulerClient({
      master: master.url,
      frameworkInfo: info,
      maxSockets: 2,
    });
    onCleanup(() => client.stop());
    await client.start();
    await Promise.all(Array.from({ length: 50 }, (_, i) => client.kill(`t-${i}`)));
    expect(master.calls).toHaveLength(50);
  });

  it("turns a 4xx into a typed error carrying the master's message", async () => {
    const { master, client } = await connect();
    master.failCallsWith(400, "Failed to validate scheduler::Call: Expecting 'kill' to be present");
    const err = await client.kill("t").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MesosError);
    expect(err).toMatchObject({
      kind: "bad_request",
      status: 400,
      callType: "KILL",
      masterMessage: "Failed to validate scheduler::Call: Expecting 'kill' to be present",
    });
  });

  it("refuses calls while not subscribed", async () => {
    const client = new MesosSchedulerClient({ master: "http://127.0.0.1:1", frameworkInfo: info });
    await expect(client.reconcile()).rejects.toMatchObject({ kind: "not_subscribed" });
  });

  it("follows a 307 with a scheme-less Location to the leader and sends calls there", async () => {
    const leader = await startRecordingMaster({ frameworkId: FID });
    onCleanup(() => leader.stop());
    const standby = await startRecordingMaster({
      frameworkId: FID,
      redirectTo: `//${new URL(leader.url).host}/api/v1/scheduler`,
    });
    onCleanup(() => standby.stop());
    const client = new MesosSchedulerClient({ master: standby.url, frameworkInfo: info });
    onCleanup(() => client.stop());
    const subscribed = await client.start();
    expect(subscribed.masterUrl).toBe(`${leader.url}/api/v1/scheduler`);
    await client.revive();
    expect(leader.calls.map((c) => (c.body as { type: string }).type)).toEqual(["REVIVE"]);
  });

  it("treats an ERROR event as fatal", async () => {
    const { master, client } = await connect();
    const failed = new Promise<MesosError>((resolve) => client.on("error", resolve));
    master.push(fixture("error-event"));
    const err = await failed;
    expect(err).toMatchObject({ kind: "framework_error", masterMessage: "Framework failed over" });
    expect(client.state).toBe("failed");
  });
});
