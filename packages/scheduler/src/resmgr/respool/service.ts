/**
 * Resource pools, end to end: reads that show the tree with its entitlements,
 * and changes that are judged by the engine's rules and written in one
 * transaction with their history row, their audit row and the entitlement
 * samples they move.
 *
 *   request ─► lock the tree ─► snapshot ─► stale version? ─► rules ─► write pool
 *              (one change       (pools, capacity,  conflict      invalid    + change row
 *               at a time)        usage, jobs)                               + audit row
 *                                                         ─► entitlements before → after
 *                                                         ─► samples of the pools that moved
 */
import { type PoolValidationError, parentPath } from "@peloton/engine";
import {
  type Page,
  type PoolRecord,
  poolSnapshot,
  type Repositories,
  type StorageGateway,
  VersionConflictError,
} from "@peloton/storage";
import type { Acting } from "../../common/acting.ts";
import {
  type ChangeFacts,
  judgeChange,
  type PoolChangeRequest,
  poolNeedingJobNames,
  recordsAfter,
} from "./change.ts";
import { type PoolConfig, settingsOf } from "./config.ts";
import { calculateSnapshot } from "./entitlements.ts";
import { historyEntry, type PoolHistoryEntry } from "./history.ts";
import {
  type EntitlementMove,
  entitlementMoves,
  type PoolPreview,
  previewChange,
} from "./preview.ts";
import { samplesOf } from "./samples.ts";
import { type PoolSeries, seriesWindow, shapeSeries } from "./series.ts";
import { loadPoolSnapshot, type PoolSnapshot, withRecords } from "./snapshot.ts";
import { type PoolDetailView, type PoolTreeView, poolDetailView, poolTreeView } from "./views.ts";

/** Why a change was not made: values, worded by each edge (API, CLI). */
export type PoolFailure =
  | { readonly kind: "invalid"; readonly errors: PoolValidationError[] }
  | {
      readonly kind: "conflict";
      readonly path: string;
      readonly expectedVersion: number;
      /** null when the pool no longer exists. */
      readonly actualVersion: number | null;
    };

export type PoolMutation =
  | {
      readonly ok: true;
      /** The pool as stored after the change (as it was, on a delete). */
      readonly pool: PoolRecord;
      readonly moves: EntitlementMove[];
    }
  | { readonly ok: false; readonly failure: PoolFailure };

export interface RespoolService {
  tree(): Promise<PoolTreeView>;
  /** null when no pool has this path. */
  get(path: string): Promise<PoolDetailView | null>;
  create(request: { path: string; config: PoolConfig; acting: Acting }): Promise<PoolMutation>;
  /** `version`: the version the user edited; a stale one is a conflict, never an overwrite. */
  update(request: {
    path: string;
    version: number;
    config: PoolConfig;
    acting: Acting;
  }): Promise<PoolMutation>;
  /** Without `version` the current one is deleted (the CLI's `respool delete`). */
  delete(request: { path: string; version?: number; acting: Acting }): Promise<PoolMutation>;
  preview(request: PoolChangeRequest): Promise<PoolPreview>;
  /** Newest first; history outlives its pool. */
  history(
    path: string,
    page: { cursor?: string | null; limit: number },
  ): Promise<Page<PoolHistoryEntry>>;
  /** null when no pool has this path. */
  series(path: string, rangeMs: number): Promise<PoolSeries | null>;
}

const AUDIT_ACTIONS = { create: "pool.create", update: "pool.update", delete: "pool.delete" };
const SYSTEM_ACTOR = "system";

export function createRespoolService(
  gateway: StorageGateway,
  opts: { now?: () => Date } = {},
): RespoolService {
  const now = opts.now ?? (() => new Date());

  async function change(
    request: PoolChangeRequest,
    expectedVersion: number | undefined,
    acting: Acting,
  ): Promise<PoolMutation> {
    const actor = acting.login;
    try {
      return await gateway.transaction(async (tx) => {
        await tx.pools.lockTree();
        const snapshot = await loadPoolSnapshot(tx);
        const stale = staleVersion(snapshot, request, expectedVersion);
        if (stale) return { ok: false, failure: stale };
        const errors = judgeChange(snapshot, request, await changeFacts(tx, snapshot, request));
        if (errors.length > 0) return { ok: false, failure: { kind: "invalid", errors } };
        const { pool, before } = await write(tx, snapshot, request, actor);
        await tx.audit.record({
          actor,
          via: acting.via,
          action: AUDIT_ACTIONS[request.action],
          targetType: "pool",
          targetId: request.path,
          before: before ? poolSnapshot(before) : null,
          after: request.action === "delete" ? null : poolSnapshot(pool),
        });
        const moves = await sampleMoves(tx, snapshot, request, pool, actor);
        return { ok: true, pool, moves };
      });
    } catch (err) {
      // The lock makes this unreachable in practice; the repository checks anyway.
      if (err instanceof VersionConflictError)
        return {
          ok: false,
          failure: {
            kind: "conflict",
            path: request.path,
            expectedVersion: err.expectedVersion,
            actualVersion: err.actualVersion,
          },
        };
      throw err;
    }
  }

  /** Entitlements before and after; the pools that moved (and the changed one) get samples now. */
  async function sampleMoves(
    tx: Repositories,
    snapshot: PoolSnapshot,
    request: PoolChangeRequest,
    pool: PoolRecord,
    actor: string,
  ): Promise<EntitlementMove[]> {
    const at = now();
    const after = withRecords(
      snapshot,
      recordsAfter(snapshot, request, { id: pool.id, at, actor }),
    );
    const afterResult = calculateSnapshot(after);
    const moves = entitlementMoves(calculateSnapshot(snapshot), afterResult);
    const touched = new Set(moves.map((m) => m.path));
    if (request.action !== "delete") touched.add(request.path);
    await tx.entitlementSamples.insertMany(samplesOf(after, afterResult, at, touched));
    return moves;
  }

  async function write(
    tx: Repositories,
    snapshot: PoolSnapshot,
    request: PoolChangeRequest,
    actor: string,
  ): Promise<{ pool: PoolRecord; before: PoolRecord | null }> {
    const existing = snapshot.records.find((r) => r.path === request.path) ?? null;
    // Stored rows keep the root as the top-level pools' parent (the snapshot shows null).
    const before = existing && { ...existing, parentId: existing.parentId ?? snapshot.root!.id };
    switch (request.action) {
      case "create": {
        const parent = parentPath(request.path);
        const parentId =
          snapshot.records.find((r) => r.path === parent)?.id ??
          snapshot.root?.id ??
          (await createRoot(tx));
        const pool = await tx.pools.create(
          {
            path: request.path,
            name: request.config.name,
            parentId,
            ...settingsOf(request.config),
          },
          actor,
        );
        return { pool, before: null };
      }
      case "update":
        return {
          pool: await tx.pools.update(
            request.path,
            existing!.version,
            settingsOf(request.config),
            actor,
          ),
          before,
        };
      case "delete":
        return { pool: await tx.pools.delete(request.path, existing!.version, actor), before };
    }
  }

  return {
    async tree() {
      const snapshot = await loadPoolSnapshot(gateway);
      return poolTreeView(snapshot, calculateSnapshot(snapshot));
    },
    async get(path) {
      const snapshot = await loadPoolSnapshot(gateway);
      return poolDetailView(snapshot, calculateSnapshot(snapshot, { explain: [path] }), path);
    },
    create: ({ path, config, acting }) =>
      change({ action: "create", path, config }, undefined, acting),
    update: ({ path, version, config, acting }) =>
      change({ action: "update", path, config }, version, acting),
    delete: ({ path, version, acting }) => change({ action: "delete", path }, version, acting),
    async preview(request) {
      const snapshot = await loadPoolSnapshot(gateway);
      return previewChange(snapshot, request, now(), await changeFacts(gateway, snapshot, request));
    },
    async history(path, page) {
      const stored = await gateway.poolHistory.list(path, page);
      return { items: stored.items.map(historyEntry), nextCursor: stored.nextCursor };
    },
    async series(path, rangeMs) {
      const pool = await gateway.pools.getByPath(path);
      if (!pool) return null;
      const window = seriesWindow(rangeMs, now());
      return shapeSeries(window, await gateway.entitlementSamples.series(pool.id, window));
    },
  };
}

/**
 * A stale edit is a conflict whatever else it says: the user judged another
 * version of the pool. (A pool that is not there is the rules' POOL_NOT_FOUND.)
 */
function staleVersion(
  snapshot: PoolSnapshot,
  request: PoolChangeRequest,
  expected: number | undefined,
): PoolFailure | null {
  if (expected === undefined || request.action === "create") return null;
  const current = snapshot.records.find((r) => r.path === request.path);
  if (!current || current.version === expected) return null;
  return {
    kind: "conflict",
    path: request.path,
    expectedVersion: expected,
    actualVersion: current.version,
  };
}

/** How many job names a refusal gives (the count says the rest). */
const NAMED_JOBS = 3;

/** The names of a few jobs a create would strand; read only when there are any. */
async function changeFacts(
  repos: Pick<Repositories, "jobs">,
  snapshot: PoolSnapshot,
  request: PoolChangeRequest,
): Promise<ChangeFacts> {
  const pool = poolNeedingJobNames(snapshot, request);
  if (!pool) return {};
  const page = await repos.jobs.list({
    poolId: pool.id,
    limit: NAMED_JOBS,
    sort: "name",
    order: "asc",
  });
  return { parentJobNames: page.items.map((j) => j.name) };
}

async function createRoot(tx: Repositories): Promise<string> {
  const root = await tx.pools.create(
    { path: "/", name: "root", parentId: null, resources: {} },
    SYSTEM_ACTOR,
  );
  return root.id;
}
