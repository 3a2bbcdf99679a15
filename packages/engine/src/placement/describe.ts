/**
 * Placement results in words, the one place they are made: "why pending"
 * ("no host fits: 23 hosts lack 2 cpu, 4 hosts are draining, 1 host
 * mismatches constraint zone = a") and "why this host".
 */
import { EXCLUSIVE_ATTRIBUTE } from "../constraints/attributes.ts";
import { describeConstraint } from "../constraints/describe.ts";
import { formatAmount, formatKindAmount } from "../resources/format.ts";
import {
  type PlacementAsk,
  type PlacementInputError,
  REJECTION_CODES,
  type RejectionCode,
  type Rejections,
  type TaskPlacement,
  type UnplacedTask,
} from "./result.ts";

/** [one host …, several hosts …] */
type Phrase = readonly [string, string];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function lacks(what: string): Phrase {
  return [`lacks ${what}`, `lack ${what}`];
}

function phrase(code: RejectionCode, ask: PlacementAsk): Phrase {
  const r = ask.resources;
  switch (code) {
    case "HOST_DRAINING":
      return ["is draining", "are draining"];
    case "HOST_DOWN":
      return ["is down", "are down"];
    case "VOLUME_ON_OTHER_HOST": {
      const where = ask.volumeHost ?? "another host";
      return [`does not hold its volume (on ${where})`, `do not hold its volume (on ${where})`];
    }
    case "GPU_HOST_RESERVED":
      return ["is a GPU host kept for GPU tasks", "are GPU hosts kept for GPU tasks"];
    case "NOT_A_GPU_HOST":
      return ["has no GPU", "have no GPU"];
    case "EXCLUSIVE_HOST":
      return [
        `is exclusive (${EXCLUSIVE_ATTRIBUTE}) and the constraint does not name it`,
        `are exclusive (${EXCLUSIVE_ATTRIBUTE}) and the constraint does not name them`,
      ];
    case "CONSTRAINT_MISMATCH": {
      const c = ask.constraint ? describeConstraint(ask.constraint) : "";
      return [`mismatches constraint ${c}`, `mismatch constraint ${c}`];
    }
    case "INSUFFICIENT_CPU":
      return lacks(formatKindAmount(r.cpu, "cpu"));
    case "INSUFFICIENT_GPU":
      return lacks(formatKindAmount(r.gpu, "gpu"));
    case "INSUFFICIENT_MEMORY":
      return lacks(formatKindAmount(r.memory, "memory"));
    case "INSUFFICIENT_DISK":
      return lacks(formatKindAmount(r.disk, "disk"));
    case "STATIC_PORT_TAKEN": {
      const ports = ask.staticPorts.join(", ");
      const what = ask.staticPorts.length === 1 ? `port ${ports}` : `one of ports ${ports}`;
      return [`has ${what} taken`, `have ${what} taken`];
    }
    case "INSUFFICIENT_PORTS":
      return lacks(plural(ask.dynamicPorts, "free port"));
  }
}

/** "23 hosts lack 2 cpu, 4 hosts are draining": most hosts first, then pipeline order. */
export function describeRejections(rejections: Rejections, ask: PlacementAsk): string {
  const entries = REJECTION_CODES.flatMap((code) => {
    const n = rejections[code] ?? 0;
    return n > 0 ? [{ code, n }] : [];
  });
  entries.sort((a, b) => b.n - a.n);
  return entries
    .map(({ code, n }) => {
      const [one, many] = phrase(code, ask);
      return `${plural(n, "host")} ${n === 1 ? one : many}`;
    })
    .join(", ");
}

/**
 * Why a task is still pending, in one sentence. A reason no change of
 * allocation resolves says so ("this will never fit on these hosts: 3 hosts
 * have no GPU") instead of reading like a wait.
 */
export function describeUnplaced(u: UnplacedTask): string {
  const rejections = describeRejections(u.rejections, u.ask);
  const own =
    u.reason === "NO_HOSTS"
      ? "no hosts to place on"
      : u.resolvable || u.gang
        ? `no host fits: ${rejections}`
        : `this will never fit on these hosts: ${rejections}`;
  if (u.reason !== "GANG_INCOMPLETE" || !u.gang) return own;
  const g = u.gang;
  const never = u.resolvable ? "" : ", and it will never start whole on these hosts";
  const whole = `its gang ${g.gangId} starts only whole and ${g.fitting} of ${g.size} tasks fit${never}`;
  return g.memberFit ? `${whole}; this task would fit` : `${whole}; this task: ${own}`;
}

/** Why this host: "on host-7, score 83.5 (pack 67, sticky 100) — best of 100 feasible hosts". */
export function describePlacement(p: TaskPlacement): string {
  const s = p.score;
  const parts = [
    p.strategy === "PACK_HOST"
      ? `pack ${formatAmount(s.pack)}`
      : `spread ${formatAmount(s.spread)}`,
    ...(s.sticky > 0 ? [`sticky ${formatAmount(s.sticky)}`] : []),
  ];
  return `on ${p.hostname}, score ${formatAmount(s.total)} (${parts.join(", ")}) — best of ${plural(p.hostsScored, "feasible host")}`;
}

export function describePlacementInputError(e: PlacementInputError): string {
  switch (e.code) {
    case "DUPLICATE_HOSTNAME":
      return `host ${e.hostname} is listed twice`;
    case "DUPLICATE_TASK_ID":
      return `task ${e.taskId} is listed twice`;
    case "INVALID_AMOUNT":
      return `${e.subject} ${e.id}: ${e.field} must be a finite number ≥ 0 (got ${e.value})`;
    case "INVALID_PORT_REQUEST":
      return e.field === "ports.dynamic"
        ? `task ${e.taskId}: ports.dynamic must be a whole number ≥ 0 (got ${e.value})`
        : `task ${e.taskId}: ${e.field} must be a port number 1–65535 asked once (got ${e.value})`;
    case "INVALID_PORT_RANGE":
      return `host ${e.hostname}: port range ${e.range.begin}–${e.range.end} must be whole numbers 0–65535 with begin ≤ end`;
    case "INVALID_OPTION":
      return `option ${e.field} must be a whole number ≥ ${e.field === "hostsToScore" ? 1 : 0} (got ${e.value})`;
  }
}
