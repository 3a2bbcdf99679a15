"use client";
import { useEffect, useState } from "react";
import { useLive } from "./live";

/** How often the server is asked while the live stream says it is gone. */
const PROBE_EVERY_MS = 2_000;

/** Whether the server answers HTTP at all (any status: a failing database still answers). */
export async function serverAnswers(): Promise<boolean> {
  try {
    await fetch("/api/trpc/system.health", {
      cache: "no-store",
      signal: AbortSignal.timeout(3_000),
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the server is gone: the live stream says so, and the server does
 * not answer a cheap request either. The stream's word alone can be wrong: a
 * server that has just started, on a busy machine, may send its first
 * heartbeat later than the stream allows for, and a page that believed the
 * stream would stop trying to load while the server answers.
 */
export function useServerGone(): boolean {
  const live = useLive();
  const streamSaysGone = live.status === "offline" && live.reason === "server";
  const [unanswered, setUnanswered] = useState(false);
  useEffect(() => {
    if (!streamSaysGone) {
      setUnanswered(false);
      return;
    }
    let current = true;
    const ask = async () => {
      const answers = await serverAnswers();
      if (current) setUnanswered(!answers);
    };
    void ask();
    const timer = setInterval(() => void ask(), PROBE_EVERY_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [streamSaysGone]);
  return streamSaysGone && unanswered;
}
