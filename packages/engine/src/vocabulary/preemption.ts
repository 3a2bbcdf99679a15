/** Between pools (fairness: a pool over its entitlement gives back), or within one (priority). */
export const PREEMPTION_KINDS = ["INTER_POOL", "INTRA_POOL"] as const;
export type PreemptionKind = (typeof PREEMPTION_KINDS)[number];

/** Which allocation was over its entitlement: non-revocable, or revocable (slack). */
export const RESOURCE_CLASSES = ["NON_SLACK", "SLACK"] as const;
export type ResourceClass = (typeof RESOURCE_CLASSES)[number];
