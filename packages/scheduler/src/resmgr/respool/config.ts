/**
 * A pool's configuration as users submit it (Peloton's ResourcePoolConfig,
 * decoded by the API's zod schema), and what it becomes: the engine's rule
 * input and the stored settings. Create and update both carry the whole
 * configuration: an update replaces it, as Peloton's UpdateResourcePool does.
 */
import {
  DEFAULT_SLACK_LIMIT_PERCENT,
  normalizePoolResources,
  type PoolConfigInput,
  RESOURCE_KINDS,
  type ResourceConfig,
  type ResourceEntryInput,
  type ResourceKind,
} from "@peloton/engine";
import type { PoolRecord, PoolSettings } from "@peloton/storage";

export interface PoolConfig {
  readonly name: string;
  readonly owningTeam?: string;
  readonly ldapGroups?: readonly string[];
  readonly description?: string;
  readonly resources: readonly ResourceEntryInput[];
  /** "PriorityFIFO" (1), the only scheduling policy Peloton has. */
  readonly policy?: string;
  readonly controllerLimit?: { readonly maxPercent: number };
  readonly slackLimit?: { readonly maxPercent: number };
  /** A parent path; create refuses it, update accepts only the current parent. */
  readonly parent?: string | { readonly value: string };
}

const POLICY_NUMBERS: Readonly<Record<string, number>> = { PriorityFIFO: 1 };

export function parentOf(config: PoolConfig): string | null {
  if (config.parent == null) return null;
  return typeof config.parent === "string" ? config.parent : config.parent.value;
}

/** What the engine's rules judge. */
export function ruleInput(config: PoolConfig): PoolConfigInput {
  return {
    name: config.name,
    parent: parentOf(config),
    resources: config.resources,
    controllerLimitMaxPercent: config.controllerLimit?.maxPercent ?? null,
    slackLimitMaxPercent: config.slackLimit?.maxPercent ?? null,
  };
}

/** What is stored (every kind filled, as Peloton does); `normalizePoolResources` gives the numbers. */
export function settingsOf(config: PoolConfig): PoolSettings {
  const resources = normalizePoolResources(config.resources);
  return {
    owningTeam: config.owningTeam ?? "",
    ldapGroups: [...(config.ldapGroups ?? [])],
    description: config.description ?? "",
    policy: POLICY_NUMBERS[config.policy ?? "PriorityFIFO"] ?? 1,
    controllerLimitMaxPercent: config.controllerLimit?.maxPercent ?? null,
    slackLimitMaxPercent: config.slackLimit?.maxPercent ?? DEFAULT_SLACK_LIMIT_PERCENT,
    resources: {
      cpu: { ...resources.cpu },
      gpu: { ...resources.gpu },
      memory: { ...resources.memory },
      disk: { ...resources.disk },
    },
  };
}

/** A stored pool's settings as a configuration (every kind listed). */
export interface StoredPoolConfig {
  name: string;
  owningTeam: string;
  ldapGroups: string[];
  description: string;
  resources: ({ kind: ResourceKind } & ResourceConfig)[];
  policy: "PriorityFIFO";
  controllerLimit?: { maxPercent: number };
  slackLimit: { maxPercent: number };
}

/** A stored pool as a configuration (the console's edit form starts from it). */
export function configOf(pool: PoolRecord): StoredPoolConfig {
  return {
    name: pool.name,
    owningTeam: pool.owningTeam,
    ldapGroups: [...pool.ldapGroups],
    description: pool.description,
    resources: RESOURCE_KINDS.map((kind) => ({ kind, ...pool.resources[kind] })),
    policy: "PriorityFIFO",
    ...(pool.controllerLimitMaxPercent === null
      ? {}
      : { controllerLimit: { maxPercent: pool.controllerLimitMaxPercent } }),
    slackLimit: { maxPercent: pool.slackLimitMaxPercent },
  };
}
