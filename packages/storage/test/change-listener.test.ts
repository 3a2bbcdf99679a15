import { createServer } from "node:net";
import { ManualClock } from "@peloton/test-support/storage/manual-clock.ts";
import { describe, expect, it, vi } from "vitest";
import { ChangeListener, type ListenerState } from "../src/live/listener.ts";

/** A local port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  await new Promise<void>((r) => server.close(() => r()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("ChangeListener", () => {
  it("retries a refused connection after retryMs, doubling the wait each time", async () => {
    const clock = new ManualClock();
    const port = await closedPort();
    let errors = 0;
    const states: ListenerState[] = [];
    const listener = new ChangeListener(`postgres://postgres@127.0.0.1:${port}/postgres`, {
      retryMs: 250,
      clock,
      onError: () => errors++,
    });
    listener.onState((s) => states.push(s));
    try {
      await vi.waitFor(() => expect(errors).toBe(1));
      expect(listener.state).toBe("down");
      await clock.advance(249);
      expect(errors).toBe(1);
      await clock.advance(1);
      await vi.waitFor(() => expect(errors).toBe(2));
      await clock.advance(499);
      expect(errors).toBe(2);
      await clock.advance(1);
      await vi.waitFor(() => expect(errors).toBe(3));
      expect(states).toEqual(["down"]);
    } finally {
      await listener.stop();
    }
    expect(clock.timers).toBe(0);
  });
});
