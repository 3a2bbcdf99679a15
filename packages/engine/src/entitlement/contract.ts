import { z } from "zod";
import { RESOURCE_KINDS } from "../resources/kinds.ts";
import { DEFAULT_SLACK_LIMIT_PERCENT, normalizePoolResources } from "../respool/config.ts";
import { RESERVATION_TYPES } from "../vocabulary/reservation-types.ts";
import type { EntitlementInput } from "./input.ts";

/**
 * The entitlement data contract's input (peloton-semantics.md, "The data
 * contract"), checked with zod. Unknown keys are errors (a misspelt `reservaton`
 * must not silently become 0); numbers are finite and never negative.
 */
const kindList = RESOURCE_KINDS.join(", ");

/** Unknown keys named as fields (kind records name them as kinds instead). */
const strict = {
  error: (iss: { code: string; keys?: string[] }) =>
    iss.code === "unrecognized_keys" && iss.keys
      ? `unknown field ${iss.keys.map((k) => JSON.stringify(k)).join(", ")}`
      : undefined,
};

const amount = z
  .number({ error: "must be a number" })
  .min(0, { error: (iss) => `negative number ${String(iss.input)}` });

const perKind = z.strictObject(
  {
    cpu: amount.optional(),
    gpu: amount.optional(),
    memory: amount.optional(),
    disk: amount.optional(),
  },
  {
    error: (iss) =>
      iss.code === "unrecognized_keys"
        ? `unknown kind ${iss.keys.map((k) => JSON.stringify(k)).join(", ")} (expected ${kindList})`
        : "must be an object of kind amounts",
  },
);

const resourceEntry = z.strictObject(
  {
    kind: z.enum(RESOURCE_KINDS, {
      error: (iss) => `unknown kind ${JSON.stringify(iss.input)} (expected ${kindList})`,
    }),
    reservation: amount.optional(),
    limit: amount.optional(),
    share: amount.optional(),
    type: z.enum(RESERVATION_TYPES).optional(),
  },
  strict,
);

const resourceList = z.array(resourceEntry).superRefine((entries, ctx) => {
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    if (seen.has(e.kind)) {
      ctx.addIssue({ code: "custom", path: [i, "kind"], message: `kind ${e.kind} listed twice` });
    }
    seen.add(e.kind);
  });
});

const pool = z.strictObject(
  {
    path: z.string({ error: "must be a string" }),
    resources: resourceList.optional(),
    slackLimit: z.strictObject({ maxPercent: amount.optional() }, strict).optional(),
    demand: perKind.optional(),
    allocation: perKind.optional(),
    slackDemand: perKind.optional(),
    slackAllocation: perKind.optional(),
  },
  strict,
);

export const entitlementContractSchema = z.strictObject(
  {
    capacity: perKind,
    slackCapacity: perKind.optional(),
    pools: z.array(pool),
  },
  strict,
);

export type EntitlementContractInput = z.infer<typeof entitlementContractSchema>;

/** `pools[2] (/a/b).resources[0].kind` — the pool's path helps find the line. */
function issuePath(path: readonly PropertyKey[], raw: unknown): string {
  let out = "";
  path.forEach((seg, i) => {
    out += typeof seg === "number" ? `[${seg}]` : `${i === 0 ? "" : "."}${String(seg)}`;
    if (i === 1 && path[0] === "pools" && typeof seg === "number") {
      const p = (raw as { pools?: { path?: unknown }[] }).pools?.[seg]?.path;
      if (typeof p === "string") out += ` (${p})`;
    }
  });
  return out || "input";
}

/**
 * Parsed input with the document's defaults: missing kinds reservation 0,
 * limit 0, share 1; a listed kind without `share` has share 0; missing demand
 * and allocation are 0; `slackLimit` absent means 20 percent, present without
 * `maxPercent` means 0 (protobuf's zero value, as in Peloton).
 */
export function parseEntitlementContract(
  raw: unknown,
): { ok: true; input: EntitlementInput } | { ok: false; message: string } {
  const parsed = entitlementContractSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, message: `${issuePath(issue.path, raw)}: ${issue.message}` };
  }
  const data = parsed.data;
  return {
    ok: true,
    input: {
      capacity: data.capacity,
      slackCapacity: data.slackCapacity ?? {},
      pools: data.pools.map((p) => ({
        path: p.path,
        resources: normalizePoolResources(p.resources ?? []),
        slackLimitMaxPercent: p.slackLimit
          ? (p.slackLimit.maxPercent ?? 0)
          : DEFAULT_SLACK_LIMIT_PERCENT,
        demand: p.demand,
        allocation: p.allocation,
        slackDemand: p.slackDemand,
        slackAllocation: p.slackAllocation,
      })),
    },
  };
}
