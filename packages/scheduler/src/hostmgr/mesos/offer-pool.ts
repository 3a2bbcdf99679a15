/**
 * The offers the host manager holds, per agent, and the leases placement
 * rounds take on them (Peloton's offer pool: AcquireHostOffers takes all
 * unreserved offers of a host at once, ReleaseHostOffers puts them back).
 * An offer is in the pool or in exactly one lease until it is used,
 * declined, rescinded or voided by a lost connection.
 */
import { randomUUID } from "node:crypto";
import type { Offer } from "@peloton/mesos";
import type { HostLease, HostResources } from "../host-adapter.ts";
import { attributesOf, portsOf, resourcesOf } from "./cluster-hosts.ts";

interface Lease {
  id: string;
  agentId: string;
  offers: Offer[];
}

export class OfferPool {
  /** agent id → offer id → offer, not leased. */
  private readonly free = new Map<string, Map<string, Offer>>();
  private readonly leases = new Map<string, Lease>();
  /** offer id → lease id, for rescinds of leased offers. */
  private readonly leasedOffer = new Map<string, string>();

  add(offers: readonly Offer[]): void {
    for (const offer of offers) {
      let byId = this.free.get(offer.agent_id.value);
      if (byId === undefined) {
        byId = new Map();
        this.free.set(offer.agent_id.value, byId);
      }
      byId.set(offer.id.value, offer);
    }
  }

  /** The offer is gone (RESCIND): out of the pool, or out of the lease holding it. */
  rescind(offerId: string): void {
    for (const [agentId, byId] of this.free) {
      if (byId.delete(offerId) && byId.size === 0) this.free.delete(agentId);
    }
    const leaseId = this.leasedOffer.get(offerId);
    if (leaseId === undefined) return;
    this.leasedOffer.delete(offerId);
    const lease = this.leases.get(leaseId);
    if (lease !== undefined) lease.offers = lease.offers.filter((o) => o.id.value !== offerId);
  }

  /** The offers not leased. */
  freeOffers(): Offer[] {
    return [...this.free.values()].flatMap((byId) => [...byId.values()]);
  }

  /** Takes one offer out of the pool to use it outside a lease; undefined when leased or gone. */
  take(offerId: string, agentId: string): Offer | undefined {
    const byId = this.free.get(agentId);
    const offer = byId?.get(offerId);
    if (byId === undefined || offer === undefined) return undefined;
    byId.delete(offerId);
    if (byId.size === 0) this.free.delete(agentId);
    return offer;
  }

  /** Every offer of the agent leaves the pool (the agent failed). Returns their ids. */
  dropAgent(agentId: string): string[] {
    const ids = [...(this.free.get(agentId)?.keys() ?? [])];
    this.free.delete(agentId);
    for (const lease of [...this.leases.values()]) {
      if (lease.agentId !== agentId) continue;
      this.takeLease(lease.id);
      ids.push(...lease.offers.map((o) => o.id.value));
    }
    return ids;
  }

  /** Forgets everything (the subscription dropped: every offer is void). */
  clear(): void {
    this.free.clear();
    this.leases.clear();
    this.leasedOffer.clear();
  }

  hosts(): HostResources[] {
    return [...this.free.values()].flatMap((byId) => {
      const offers = [...byId.values()];
      return offers.length > 0 ? [summarise(offers)] : [];
    });
  }

  acquire(hostnames: readonly string[]): HostLease[] {
    const wanted = new Set(hostnames);
    const out: HostLease[] = [];
    for (const [agentId, byId] of this.free) {
      const offers = [...byId.values()];
      if (offers.length === 0 || !wanted.has(offers[0]!.hostname)) continue;
      this.free.delete(agentId);
      const lease: Lease = { id: randomUUID(), agentId, offers };
      this.leases.set(lease.id, lease);
      for (const o of offers) this.leasedOffer.set(o.id.value, lease.id);
      out.push({ leaseId: lease.id, ...summarise(offers) });
    }
    return out;
  }

  release(leaseIds: readonly string[]): void {
    for (const id of leaseIds) {
      const lease = this.takeLease(id);
      if (lease !== undefined) this.add(lease.offers);
    }
  }

  /** Removes a lease and returns its offers (to launch on them); undefined if unknown. */
  takeLease(leaseId: string): Lease | undefined {
    const lease = this.leases.get(leaseId);
    if (lease === undefined) return undefined;
    this.leases.delete(leaseId);
    for (const o of lease.offers) this.leasedOffer.delete(o.id.value);
    return lease;
  }

  /** Offers currently held, leased or not. */
  get size(): number {
    let n = 0;
    for (const byId of this.free.values()) n += byId.size;
    for (const lease of this.leases.values()) n += lease.offers.length;
    return n;
  }
}

/** One host's free resources: the sum of its offers. */
export function summarise(offers: readonly Offer[]): HostResources {
  const first = offers[0]!;
  const resources = offers.flatMap((o) => o.resources ?? []);
  return {
    hostname: first.hostname,
    hostId: first.agent_id.value,
    attributes: attributesOf(first.attributes),
    free: resourcesOf(resources),
    freePorts: portsOf(resources),
  };
}
