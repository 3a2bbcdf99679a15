/**
 * Time limits for tests on a shared machine. The bounds (a refusal
 * in 200 ms, a health probe in 100 ms) are for a machine doing its own work;
 * a CI runner or a laptop shared with other builds runs everything slower.
 * `machineSlowness()` times a fixed piece of CPU work against what it takes
 * on an idle 2-core machine (~12 ms; median of 7 runs) and the bounds stretch by that factor
 * (1 when idle, at most 8), printed so that a slow run says so.
 */
import { parseDocument } from "yaml";

const IDLE_MS = 12;

function work(): number {
  let doc = "";
  for (let i = 0; i < 200; i++) doc += `k${i}: {a: ${i}, b: [x, y, z]}\n`;
  const started = performance.now();
  parseDocument(doc).toJS();
  return performance.now() - started;
}

let factor: number | undefined;

export function machineSlowness(): number {
  if (factor !== undefined) return factor;
  work(); // warm the parser
  const runs = Array.from({ length: 7 }, work).sort((a, b) => a - b);
  factor = Math.min(8, Math.max(1, runs[3]! / IDLE_MS));
  console.info(
    `timing bounds × ${factor.toFixed(2)} (the machine is ${factor > 1 ? "busy" : "idle"})`,
  );
  return factor;
}

/** `ms` on an idle machine, stretched by how busy this one is. */
export function within(ms: number): number {
  return ms * machineSlowness();
}
