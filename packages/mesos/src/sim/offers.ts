/**
 * Pure offer logic: which of an agent's free resources a framework role may
 * be offered, whether that is worth an offer, and the Offer message itself.
 */
import type { Attribute, Offer, URL } from "../proto/messages.ts";
import type { ResourceBag } from "../resources/bag.ts";
import { reservationRole, UNRESERVED } from "../resources/identity.ts";

/** Mesos' default `--min_allocatable_resources`: cpus:0.01 | mem:32. */
export function isAllocatable(resources: ResourceBag): boolean {
  return resources.scalar("cpus") >= 0.01 || resources.scalar("mem") >= 32;
}

/** Unreserved resources plus those reserved for `role` (volumes included). */
export function offerableFor(available: ResourceBag, role: string): ResourceBag {
  return available.filter((r) => {
    const owner = reservationRole(r);
    return owner === UNRESERVED || owner === role;
  });
}

/**
 * GPU agents are offered only to frameworks with the GPU_RESOURCES
 * capability, so GPU machines are not filled with CPU-only work (Mesos'
 * `--filter_gpu_resources`, on by default).
 */
export function mayOfferAgent(agentHasGpus: boolean, frameworkGpuCapable: boolean): boolean {
  return !agentHasGpus || frameworkGpuCapable;
}

export interface OfferAgent {
  id: string;
  hostname: string;
  url: URL;
  attributes: readonly Attribute[];
}

export function buildOffer(args: {
  offerId: string;
  frameworkId: string;
  role: string;
  agent: OfferAgent;
  resources: ResourceBag;
}): Offer {
  return {
    id: { value: args.offerId },
    framework_id: { value: args.frameworkId },
    agent_id: { value: args.agent.id },
    hostname: args.agent.hostname,
    url: args.agent.url,
    allocation_info: { role: args.role },
    resources: args.resources.toResources(args.role),
    attributes: args.agent.attributes.map((a) => ({ ...a })),
  };
}
