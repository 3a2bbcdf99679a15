"use client";
import { useEffect, useState } from "react";

/**
 * The current time, kept fresh every `intervalMs` — and null during the
 * server render and the first client render, so that time-dependent text
 * ("3 seconds ago") never differs between the two: a hydration mismatch
 * would make React render the page again on the client.
 */
export function useNow(intervalMs: number): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}
