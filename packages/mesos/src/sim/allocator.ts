/**
 * The offer side of the master: turns free agent resources into offers for
 * subscribed frameworks, honours refusal filters, suppression and GPU
 * gating, and takes offers back (accept, decline, rescind, disconnect).
 *
 * Allocation runs on a period (Mesos' allocation interval) and, coalesced to
 * one pass per event-loop turn, after anything that frees resources.
 */
import type { Filters, Offer, OfferID } from "../proto/messages.ts";
import type { ResourceBag } from "../resources/bag.ts";
import type { SimAgent } from "./agent.ts";
import { isRefused, pruneFilters, refuseMillis } from "./filters.ts";
import type { Master } from "./master.ts";
import type { SimFramework, SimOffer } from "./model.ts";
import { buildOffer, isAllocatable, mayOfferAgent, offerableFor } from "./offers.ts";

export class Allocator {
  readonly offers = new Map<string, SimOffer>();
  private offerSeq = 0;
  private scheduled = false;
  private periodic: NodeJS.Timeout | undefined;
  private filterTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly master: Master) {}

  start(): void {
    const every = this.master.config.allocationIntervalSeconds * 1000;
    this.periodic = setInterval(() => this.allocate(), every);
    this.periodic.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.periodic !== undefined) clearInterval(this.periodic);
    if (this.filterTimer !== undefined) clearTimeout(this.filterTimer);
  }

  /** Asks for one allocation pass at the end of this event-loop turn. */
  schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.allocate();
    });
  }

  allocate(): void {
    if (this.stopped) return;
    const now = Date.now();
    this.expireOffers(now);
    const frameworks = this.candidates();
    if (frameworks.length === 0) return;
    const batches = new Map<SimFramework, Offer[]>();
    for (const agent of this.master.agents.values()) {
      let available: ResourceBag | undefined;
      for (const fw of frameworks) {
        if (!mayOfferAgent(agent.hasGpus(), fw.has("GPU_RESOURCES"))) continue;
        for (const role of fw.roles) {
          if (fw.suppressed.has(role)) continue;
          available ??= agent.available();
          const candidate = offerableFor(available, role);
          if (!isAllocatable(candidate)) continue;
          if (isRefused(fw.filters, agent.id, role, candidate, now)) continue;
          available.subtract(candidate);
          const offer = this.makeOffer(fw, agent, role, candidate, now);
          const batch = batches.get(fw);
          if (batch === undefined) batches.set(fw, [offer]);
          else batch.push(offer);
        }
      }
    }
    for (const [fw, offers] of batches) fw.send({ type: "OFFERS", offers: { offers } });
    this.armFilterTimer(now);
  }

  /** Connected frameworks, least-allocated first (a cheap stand-in for DRF). */
  private candidates(): SimFramework[] {
    const list = [...this.master.frameworks.values()].filter(
      (fw) => fw.connected && fw.roles.some((r) => !fw.suppressed.has(r)),
    );
    if (list.length < 2) return list;
    const cpus = new Map(list.map((fw) => [fw, allocatedCpus(fw, this.offers)]));
    return list.sort((a, b) => cpus.get(a)! - cpus.get(b)! || a.id.localeCompare(b.id));
  }

  private makeOffer(
    fw: SimFramework,
    agent: SimAgent,
    role: string,
    resources: ResourceBag,
    now: number,
  ): Offer {
    const id = `${this.master.config.masterId}-O${this.offerSeq++}`;
    const timeout = this.master.config.offerTimeoutSeconds;
    this.offers.set(id, {
      id,
      frameworkId: fw.id,
      agentId: agent.id,
      role,
      resources,
      expiresAt: timeout !== undefined ? now + timeout * 1000 : undefined,
    });
    fw.offers.add(id);
    agent.offered.add(resources);
    return buildOffer({ offerId: id, frameworkId: fw.id, role, agent, resources });
  }

  /** Takes an offer out of circulation; its resources are free again (or about to be used). */
  take(offer: SimOffer): void {
    this.offers.delete(offer.id);
    this.master.frameworks.get(offer.frameworkId)?.offers.delete(offer.id);
    this.master.agents.get(offer.agentId)?.offered.subtract(offer.resources);
  }

  decline(fw: SimFramework, offerIds: readonly OfferID[], filters: Filters | undefined): void {
    const refuse = refuseMillis(filters);
    for (const { value } of offerIds) {
      const offer = this.offers.get(value);
      if (offer === undefined || offer.frameworkId !== fw.id) continue;
      this.take(offer);
      this.refuse(fw, offer.agentId, offer.role, offer.resources, refuse);
    }
    this.schedule();
  }

  /** Records a refusal filter for `resources` of one agent (no-op for 0 ms). */
  refuse(
    fw: SimFramework,
    agentId: string,
    role: string,
    resources: ResourceBag,
    ms: number,
  ): void {
    if (ms <= 0 || resources.isEmpty()) return;
    fw.filters.push({ agentId, role, resources, expiresAt: Date.now() + ms });
  }

  /** REVIVE: drop the filters of `roles` (all when empty) and un-suppress them. */
  revive(fw: SimFramework, roles: readonly string[] | undefined): void {
    const target = new Set(roles !== undefined && roles.length > 0 ? roles : fw.roles);
    for (let i = fw.filters.length - 1; i >= 0; i--) {
      if (target.has(fw.filters[i]!.role)) fw.filters.splice(i, 1);
    }
    for (const role of target) fw.suppressed.delete(role);
    this.schedule();
  }

  /** SUPPRESS: no new offers for `roles` (all when empty); outstanding offers stay valid. */
  suppress(fw: SimFramework, roles: readonly string[] | undefined): void {
    for (const role of roles !== undefined && roles.length > 0 ? roles : fw.roles) {
      fw.suppressed.add(role);
    }
  }

  /** Takes back every offer of a framework without telling it (its stream is gone). */
  recoverOffersOf(fw: SimFramework): void {
    for (const id of [...fw.offers]) {
      const offer = this.offers.get(id);
      if (offer !== undefined) this.take(offer);
    }
    fw.offers.clear();
    this.schedule();
  }

  rescind(offer: SimOffer): void {
    this.take(offer);
    this.master.frameworks
      .get(offer.frameworkId)
      ?.send({ type: "RESCIND", rescind: { offer_id: { value: offer.id } } });
    this.schedule();
  }

  rescindAgentOffers(agent: SimAgent): void {
    for (const offer of [...this.offers.values()]) {
      if (offer.agentId === agent.id) this.rescind(offer);
    }
  }

  /** Rescinds every outstanding offer (of one agent when given): a test and operator hook. */
  rescindAll(agentId?: string): void {
    for (const offer of [...this.offers.values()]) {
      if (agentId === undefined || offer.agentId === agentId) this.rescind(offer);
    }
  }

  private expireOffers(now: number): void {
    if (this.master.config.offerTimeoutSeconds === undefined) return;
    for (const offer of [...this.offers.values()]) {
      if (offer.expiresAt !== undefined && offer.expiresAt <= now) this.rescind(offer);
    }
  }

  /** Wakes the allocator when the earliest refusal filter expires. */
  private armFilterTimer(now: number): void {
    let next: number | undefined;
    for (const fw of this.master.frameworks.values()) {
      const t = pruneFilters(fw.filters, now);
      if (t !== undefined) next = next === undefined ? t : Math.min(next, t);
    }
    if (this.filterTimer !== undefined) clearTimeout(this.filterTimer);
    this.filterTimer = undefined;
    if (next === undefined || this.stopped) return;
    this.filterTimer = setTimeout(() => this.schedule(), Math.max(1, next - now));
    this.filterTimer.unref();
  }
}

function allocatedCpus(fw: SimFramework, offers: Map<string, SimOffer>): number {
  let sum = 0;
  for (const task of fw.tasks.values()) sum += task.resources.scalar("cpus");
  for (const id of fw.offers) sum += offers.get(id)?.resources.scalar("cpus") ?? 0;
  return sum;
}
