/** Status codes and error bodies of the sim's endpoint, as a Mesos master answers them. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MesosSchedulerClient } from "../src/index.ts";
import { fixture } from "./support/fixtures.ts";
import { client, frameworkInfo, onCleanup, shellTask, sim } from "./support/harness.ts";
import { rawCall, rawRequest, rawSubscribe } from "./support/raw-http.ts";

const json = { "Content-Type": "application/json" };

describe("mesos-sim HTTP status codes", () => {
  it("405 for a GET, with Allow: POST; 404 for an unknown path", async () => {
    const s = await sim();
    const get = await rawRequest(s.url, { method: "GET" });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
    expect(
      (await rawRequest(s.url, { path: "/api/v1/nope", headers: json, body: "{}" })).status,
    ).toBe(404);
  });

  it("400 without Content-Type; 415 for a charset suffix or protobuf", async () => {
    const s = await sim();
    const body = JSON.stringify(fixture("subscribe-call"));
    expect(await rawRequest(s.url, { body })).toMatchObject({
      status: 400,
      text: "Expecting 'Content-Type' to be present",
    });
    for (const type of [
      "application/json; charset=utf-8",
      "application/x-protobuf",
      "text/plain",
    ]) {
      const res = await rawRequest(s.url, { headers: { "Content-Type": type }, body });
      expect(res.status, type).toBe(415);
    }
  });

  it("400 with the reason for malformed JSON, a missing required field, a wrong type", async () => {
    const s = await sim();
    const bad = await rawRequest(s.url, { headers: json, body: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/^Failed to parse body into JSON/);
    const noUser = await rawCall(s.url, {
      type: "SUBSCRIBE",
      subscribe: { framework_info: { name: "x" } },
    });
    expect(noUser).toMatchObject({ status: 400 });
    expect(noUser.text).toMatch(/missing required field 'subscribe.framework_info.user'/);
    const badType = await rawCall(s.url, {
      type: "KILL",
      framework_id: { value: "f" },
      kill: { task_id: { value: 7 } },
    });
    expect(badType.text).toMatch(/'kill.task_id.value' must be a string/);
    const unknownType = await rawCall(s.url, { type: "LAUNCH_ROCKETS" });
    expect(unknownType.status).toBe(400);
    const noBody = await rawCall(s.url, { type: "KILL", framework_id: { value: "f" } });
    expect(noBody.text).toBe("Failed to validate scheduler::Call: Expecting 'kill' to be present");
    const mismatch = await rawCall(s.url, {
      ...fixture<Record<string, unknown>>("resubscribe-call"),
      framework_id: { value: "other" },
    });
    expect(mismatch.text).toMatch(/'framework_id' differs from 'subscribe.framework_info.id'/);
  });

  it("406 for a SUBSCRIBE that does not accept JSON", async () => {
    const s = await sim();
    const res = await rawRequest(s.url, {
      headers: { ...json, Accept: "application/x-protobuf" },
      body: JSON.stringify(fixture("subscribe-call")),
    });
    expect(res.status).toBe(406);
  });

  it("400 for an unknown framework, a missing or wrong stream id; 403 once unsubscribed", async () => {
    const s = await sim();
    expect((await rawCall(s.url, fixture("reconcile-implicit-call"))).text).toBe(
      "Framework cannot be found",
    );
    const stream = await rawSubscribe(s.url, fixture("resubscribe-call"));
    await stream.log.waitFor((e) => e.type === "SUBSCRIBED");
    const missing = await rawCall(s.url, fixture("reconcile-implicit-call"));
    expect(missing.status).toBe(400);
    expect(missing.text).toMatch(/Mesos-Stream-Id/);
    expect((await rawCall(s.url, fixture("reconcile-implicit-call"), "wrong")).status).toBe(400);
    expect((await rawCall(s.url, fixture("reconcile-implicit-call"), stream.streamId)).status).toBe(
      202,
    );
    stream.close();
    await expect
      .poll(
        async () =>
          (await rawCall(s.url, fixture("reconcile-implicit-call"), stream.streamId)).status,
      )
      .toBe(403);
  });

  it("307 to the leader (scheme-less Location) when not leading, 503 with no leader", async () => {
    const leader = await sim();
    const standby = await sim({ redirectTo: leader.url });
    const res = await rawCall(standby.url, fixture("subscribe-call"));
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe(`//127.0.0.1:${leader.port}/api/v1/scheduler`);
    // The client lands on the leader.
    const { client: c } = await client(standby);
    expect(c.state).toBe("subscribed");
    expect(leader.frameworkIds()).toHaveLength(1);

    standby.setLeadership(false);
    const unavailable = await rawCall(standby.url, fixture("subscribe-call"));
    expect(unavailable).toMatchObject({ status: 503, text: "No leader elected" });
  });

  it("the client retries a 503 until a leader is elected", async () => {
    const s = await sim();
    s.setLeadership(false);
    const c = new MesosSchedulerClient({
      master: s.url,
      frameworkInfo: frameworkInfo(),
      backoff: { initialMs: 10, maxMs: 50 },
    });
    onCleanup(() => c.stop());
    const started = c.start();
    const disconnected = await new Promise((r) => c.once("disconnected", r));
    expect(disconnected).toMatchObject({ error: { kind: "service_unavailable", status: 503 } });
    s.setLeadership(true);
    await expect(started).resolves.toMatchObject({ resubscribed: false });
  });

  it("serves sandbox files like the agent's /files/read and /files/browse", async () => {
    const s = await sim({ agents: 1 });
    const { client: c, log } = await client(s);
    const [offer] = await log.offers();
    await c.launch([offer!.id], [shellTask("files-1", offer!.agent_id.value, "printf 0123456789")]);
    await log.update("files-1", "TASK_STARTING");
    await expect.poll(() => s.tasks()[0]?.state).toBe("TASK_FINISHED");
    const dir = s.sandboxPath("files-1")!;
    const read = (q: string) => rawRequest(s.url, { method: "GET", path: `/files/read?${q}` });
    const path = encodeURIComponent(join(dir, "stdout"));
    expect(JSON.parse((await read(`path=${path}&offset=-1`)).text)).toEqual({
      data: "",
      offset: 10,
    });
    expect(JSON.parse((await read(`path=${path}&offset=2&length=3`)).text)).toEqual({
      data: "234",
      offset: 2,
    });
    expect((await read("offset=0")).status).toBe(400);
    expect((await read(`path=${encodeURIComponent("/etc/passwd")}`)).status).toBe(404);
    const browse = await rawRequest(s.url, {
      method: "GET",
      path: `/files/browse?path=${encodeURIComponent(dir)}`,
    });
    expect(
      JSON.parse(browse.text)
        .map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual([join(dir, "stderr"), join(dir, "stdout")]);
  });
});
