import {
  ALLOCATING_TASK_STATES,
  CAPACITY_HOST_STATES,
  type HostState,
  type ResourceKind,
} from "@peloton/engine";
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import { changesRepository } from "./changes.ts";
import { decodeCursorJson, encodeCursorJson, keysetPage } from "./keyset.ts";
import { escapeLike } from "./like.ts";
import type { Page } from "./pool-history.ts";

export interface HostUpsert {
  hostname: string;
  agentId: string;
  attributes: Record<string, string>;
  cpu: number;
  memMb: number;
  diskMb: number;
  gpu: number;
  ports: [number, number][];
  state: HostState;
}

/** A host as the cluster reports it (total resources, not what is free). */
export interface ClusterHost {
  hostname: string;
  agentId: string;
  /** The agent's own endpoint; null keeps the one recorded before. */
  agentUrl: string | null;
  attributes: Record<string, string>;
  cpu: number;
  memMb: number;
  diskMb: number;
  gpu: number;
  ports: [number, number][];
}

/** One size of host and how many hosts have it (`ports`: how many ports it offers). */
export interface HostShapeRecord {
  cpu: number;
  memMb: number;
  diskMb: number;
  gpu: number;
  ports: number;
  hosts: number;
}

export interface HostRecord extends ClusterHost {
  state: HostState;
  /** Where the operator wants it: DOWN while in maintenance, UP otherwise (Peloton's goal state). */
  goalState: HostState;
  stateReason: string | null;
  stateSince: Date;
  registeredAt: Date;
  lastSeenAt: Date;
  /**
   * Held by the host's tasks in allocating states; disk also counts the
   * host's persistent volumes (`volumesMb`), which hold their disk whether
   * or not a task runs.
   */
  allocated: { cpu: number; memMb: number; diskMb: number; gpu: number };
  /** Disk held by the host's created persistent volumes (counted in `diskMb` and `allocated.diskMb`). */
  volumesMb: number;
  /** Tasks on the host in allocating states (placed through running, until killed). */
  tasks: number;
}

export const HOST_SORT_KEYS = [
  "hostname",
  "state",
  "cpu",
  "memMb",
  "diskMb",
  "gpu",
  "tasks",
  "lastSeenAt",
] as const;
export type HostSortKey = (typeof HOST_SORT_KEYS)[number];

export interface HostListQuery {
  states?: readonly HostState[];
  /** Every pair must match (`{zone: "us-east-1a"}`). */
  attributes?: Readonly<Record<string, string>>;
  /** Part of the hostname, case-insensitive. */
  text?: string;
  sort?: HostSortKey;
  order?: "asc" | "desc";
  limit: number;
  cursor?: string | null;
}

/** The SQL expression of each sort key (whitelisted: they are spliced into the query). */
const SORT_SQL: Record<HostSortKey, string> = {
  hostname: "h.hostname",
  state: "h.state",
  cpu: "h.cpu",
  memMb: "h.mem_mb",
  diskMb: "h.disk_mb",
  gpu: "h.gpu",
  tasks: "coalesce(a.tasks, 0)::int",
  lastSeenAt: "h.last_seen_at",
};

interface HostRow {
  hostname: string;
  agent_id: string;
  agent_url: string | null;
  attributes: Record<string, string>;
  cpu: number;
  mem_mb: number;
  disk_mb: number;
  gpu: number;
  ports: [number, number][];
  state: HostState;
  goal_state: HostState;
  state_reason: string | null;
  state_since: Date;
  registered_at: Date;
  last_seen_at: Date;
  alloc_cpu: number;
  alloc_mem: number;
  alloc_disk: number;
  alloc_gpu: number;
  volumes_mb: number;
  tasks: number;
  sort_value: string | number | Date | null;
}

const toRecord = (r: HostRow): HostRecord => ({
  hostname: r.hostname,
  agentId: r.agent_id,
  agentUrl: r.agent_url,
  attributes: r.attributes,
  cpu: r.cpu,
  memMb: r.mem_mb,
  // The cluster reports a volume's disk apart from the agent's free disk:
  // added back, the host's total stays what the machine has.
  diskMb: r.disk_mb + r.volumes_mb,
  gpu: r.gpu,
  ports: r.ports,
  state: r.state,
  goalState: r.goal_state,
  stateReason: r.state_reason,
  stateSince: r.state_since,
  registeredAt: r.registered_at,
  lastSeenAt: r.last_seen_at,
  allocated: {
    cpu: r.alloc_cpu,
    memMb: r.alloc_mem,
    diskMb: r.alloc_disk + r.volumes_mb,
    gpu: r.alloc_gpu,
  },
  volumesMb: r.volumes_mb,
  tasks: r.tasks,
});

/** Hosts with what their tasks hold; the one query behind list and get. */
function selectHosts(where: Prisma.Sql, sortSql: string, tail: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT h.hostname, h.agent_id, h.agent_url, h.attributes, h.cpu, h.mem_mb, h.disk_mb, h.gpu,
           h.ports, h.state::text AS state, h.goal_state::text AS goal_state, h.state_reason, h.state_since, h.registered_at,
           h.last_seen_at,
           coalesce(a.cpu, 0)::float8 AS alloc_cpu, coalesce(a.mem, 0)::float8 AS alloc_mem,
           coalesce(a.disk, 0)::float8 AS alloc_disk, coalesce(a.gpu, 0)::float8 AS alloc_gpu,
           coalesce(a.tasks, 0)::int AS tasks,
           coalesce((SELECT sum(v.size_mb) FROM volumes v
                     WHERE v.hostname = h.hostname AND v.state = 'CREATED'), 0)::float8 AS volumes_mb,
           (${Prisma.raw(sortSql)})${Prisma.raw(sortSql === "h.state" ? "::text" : "")} AS sort_value
    FROM hosts h
    LEFT JOIN LATERAL (
      SELECT sum(t.cpu) AS cpu, sum(t.mem_mb) AS mem, sum(t.disk_mb) AS disk, sum(t.gpu) AS gpu,
             count(*) AS tasks
      FROM tasks t
      WHERE t.hostname = h.hostname AND t.state::text = ANY(${[...ALLOCATING_TASK_STATES]}::text[])
    ) a ON true
    WHERE ${where}
    ${tail}`;
}

interface Cursor {
  v: string | number | null;
  h: string;
}

function decodeCursor(text: string): Cursor | undefined {
  const c = decodeCursorJson<Cursor>(text);
  return typeof c?.h === "string" ? { v: c.v ?? null, h: c.h } : undefined;
}

/** Hosts as the host manager learns them from the cluster, and as operators drain them. */
export function hostsRepository(db: DbOrTx) {
  const announce = (hostnames: string[]) =>
    hostnames.length > 0
      ? changesRepository(db).announce({ topic: "hosts", keys: hostnames })
      : Promise.resolve();

  /**
   * UP hosts matching `which` become LOST with `reason` (their agent is gone;
   * a host in maintenance keeps its state); each gets its audit row
   * ("host.lost" by the system: the activity feed shows the host lost) in
   * the same statement, so the two commit together.
   */
  const markLost = async (which: Prisma.Sql, reason: string): Promise<string[]> => {
    const rows = await db.$queryRaw<{ hostname: string; audit: string | null }[]>`
      WITH lost AS (
        UPDATE hosts h SET state = 'LOST', state_reason = ${reason}, state_since = now(),
                           updated_at = now()
        FROM hosts was
        WHERE was.hostname = h.hostname AND h.state = 'UP' AND ${which}
        RETURNING h.hostname, was.state::text AS was, was.state_reason AS was_reason),
      logged AS (
        INSERT INTO audit_log (actor, via, action, target_type, target_id, before, after)
        SELECT 'system', 'system', 'host.lost', 'host', d.hostname,
               jsonb_build_object('state', d.was, 'reason', d.was_reason),
               jsonb_build_object('state', 'LOST', 'reason', ${reason}::text)
        FROM lost d
        RETURNING id, target_id)
      SELECT d.hostname, l.id::text AS audit FROM lost d LEFT JOIN logged l ON l.target_id = d.hostname`;
    const hostnames = rows.map((r) => r.hostname);
    await announce(hostnames);
    const audit = rows.flatMap((r) => (r.audit === null ? [] : [r.audit]));
    if (audit.length > 0) await changesRepository(db).announce({ topic: "audit", keys: audit });
    return hostnames;
  };

  const get = async (hostname: string): Promise<HostRecord | null> => {
    const rows = await db.$queryRaw<HostRow[]>(
      selectHosts(Prisma.sql`h.hostname = ${hostname}`, SORT_SQL.hostname, Prisma.empty),
    );
    return rows[0] ? toRecord(rows[0]) : null;
  };

  return {
    /** The cluster capacity: the sum of UP and DRAINING hosts' resources, and how many hosts that is. */
    async capacity(): Promise<{ hosts: number; capacity: Record<ResourceKind, number> }> {
      const sum = await db.host.aggregate({
        where: { state: { in: [...CAPACITY_HOST_STATES] } },
        _count: { _all: true },
        _sum: { cpu: true, gpu: true, memMb: true, diskMb: true },
      });
      return {
        hosts: sum._count._all,
        capacity: {
          cpu: sum._sum.cpu ?? 0,
          gpu: sum._sum.gpu ?? 0,
          memory: sum._sum.memMb ?? 0,
          disk: sum._sum.diskMb ?? 0,
        },
      };
    },

    /**
     * The sizes of the hosts that count as capacity, each distinct size once
     * with how many hosts have it (a cluster has few): what admission and
     * submit ask "could any host ever hold this task" of. Ports: how many the
     * host offers in all its ranges.
     */
    async shapes(): Promise<HostShapeRecord[]> {
      const rows = await db.$queryRaw<
        {
          cpu: number;
          mem_mb: number;
          disk_mb: number;
          gpu: number;
          ports: number;
          hosts: number;
        }[]
      >`
        SELECT h.cpu, h.mem_mb, h.disk_mb, h.gpu,
               coalesce((SELECT sum((r ->> 1)::int - (r ->> 0)::int + 1)
                         FROM jsonb_array_elements(
                           CASE WHEN jsonb_typeof(h.ports) = 'array' THEN h.ports ELSE '[]' END) r),
                        0)::int AS ports,
               count(*)::int AS hosts
        FROM hosts h
        WHERE h.state::text = ANY(${[...CAPACITY_HOST_STATES]}::text[])
        GROUP BY 1, 2, 3, 4, 5`;
      return rows.map((r) => ({
        cpu: r.cpu,
        memMb: r.mem_mb,
        diskMb: r.disk_mb,
        gpu: r.gpu,
        ports: r.ports,
        hosts: r.hosts,
      }));
    },

    /** Records a host by hostname; a re-registered agent replaces the old agent id. */
    async upsert(h: HostUpsert): Promise<void> {
      const data = {
        agentId: h.agentId,
        attributes: h.attributes as Prisma.InputJsonObject,
        cpu: h.cpu,
        memMb: h.memMb,
        diskMb: h.diskMb,
        gpu: h.gpu,
        ports: h.ports as Prisma.InputJsonArray,
        state: h.state,
        lastSeenAt: new Date(),
      };
      await db.host.upsert({
        where: { hostname: h.hostname },
        create: { hostname: h.hostname, ...data },
        update: data,
      });
      await announce([h.hostname]);
    },

    /**
     * Records hosts the cluster reports as registered, in one statement. A
     * LOST host that is back becomes UP; maintenance states (DRAINING,
     * DRAINED, DOWN) stay: only completing the maintenance ends them.
     * Returns the hostnames whose row was inserted or changed state.
     */
    async recordRegistered(hosts: readonly ClusterHost[]): Promise<string[]> {
      if (hosts.length === 0) return [];
      const rows = await db.$queryRaw<{ hostname: string }[]>`
        INSERT INTO hosts AS h (hostname, agent_id, agent_url, attributes, cpu, mem_mb, disk_mb, gpu,
                                ports, state, state_since, last_seen_at, updated_at)
        SELECT u.hostname, u.agent_id, u.agent_url, u.attributes::jsonb, u.cpu, u.mem_mb,
               u.disk_mb, u.gpu, u.ports::jsonb, 'UP', now(), now(), now()
        FROM unnest(${hosts.map((h) => h.hostname)}::text[], ${hosts.map((h) => h.agentId)}::text[],
                    ${hosts.map((h) => h.agentUrl)}::text[],
                    ${hosts.map((h) => JSON.stringify(h.attributes))}::text[],
                    ${hosts.map((h) => h.cpu)}::float8[], ${hosts.map((h) => h.memMb)}::float8[],
                    ${hosts.map((h) => h.diskMb)}::float8[], ${hosts.map((h) => h.gpu)}::float8[],
                    ${hosts.map((h) => JSON.stringify(h.ports))}::text[])
          AS u(hostname, agent_id, agent_url, attributes, cpu, mem_mb, disk_mb, gpu, ports)
        ON CONFLICT (hostname) DO UPDATE SET
          agent_id = EXCLUDED.agent_id,
          agent_url = coalesce(EXCLUDED.agent_url, h.agent_url),
          attributes = EXCLUDED.attributes, cpu = EXCLUDED.cpu, mem_mb = EXCLUDED.mem_mb,
          disk_mb = EXCLUDED.disk_mb, gpu = EXCLUDED.gpu, ports = EXCLUDED.ports,
          state = CASE WHEN h.state = 'LOST' THEN 'UP' ELSE h.state END,
          state_reason = CASE WHEN h.state = 'LOST' THEN NULL ELSE h.state_reason END,
          state_since = CASE WHEN h.state = 'LOST' THEN now() ELSE h.state_since END,
          last_seen_at = now(), updated_at = now()
        RETURNING hostname`;
      const changed = rows.map((r) => r.hostname);
      await announce(changed);
      return changed;
    },

    /**
     * Marks LOST the UP hosts of these agents (lost, removed), with why.
     * A host in maintenance keeps its maintenance state: the operator's
     * intent outlives the agent (a DOWN host's agent is removed on purpose).
     * Returns their hostnames.
     */
    async markAgentsLost(agentIds: readonly string[], reason: string): Promise<string[]> {
      if (agentIds.length === 0) return [];
      return markLost(Prisma.sql`h.agent_id = ANY(${[...agentIds]}::text[])`, reason);
    },

    /** Marks LOST every UP host that is not among `registered` hostnames (the cluster no longer has it). */
    async markMissingLost(registered: readonly string[], reason: string): Promise<string[]> {
      return markLost(Prisma.sql`NOT (h.hostname = ANY(${[...registered]}::text[]))`, reason);
    },

    get,

    /**
     * A page of hosts, filtered and sorted on the server, keyset-paginated on
     * (sort value, hostname): stable under concurrent changes, no OFFSET.
     */
    async list(q: HostListQuery): Promise<Page<HostRecord>> {
      const sort = q.sort ?? "hostname";
      const desc = q.order === "desc";
      const sortSql = SORT_SQL[sort];
      const conditions: Prisma.Sql[] = [Prisma.sql`true`];
      if (q.states && q.states.length > 0) {
        conditions.push(Prisma.sql`h.state::text = ANY(${[...q.states]}::text[])`);
      }
      if (q.attributes && Object.keys(q.attributes).length > 0) {
        conditions.push(Prisma.sql`h.attributes @> ${JSON.stringify(q.attributes)}::jsonb`);
      }
      if (q.text) conditions.push(Prisma.sql`h.hostname ILIKE ${`%${escapeLike(q.text)}%`}`);
      const cursor = q.cursor ? decodeCursor(q.cursor) : undefined;
      if (cursor) {
        const cmp = Prisma.raw(desc ? "<" : ">");
        const value =
          sort === "hostname"
            ? Prisma.sql`${cursor.h}`
            : sort === "state"
              ? Prisma.sql`${cursor.v}::"HostState"`
              : sort === "lastSeenAt"
                ? Prisma.sql`${cursor.v}::timestamptz`
                : Prisma.sql`${cursor.v}::float8`;
        const sortCol = Prisma.raw(sort === "state" ? "h.state" : sortSql);
        conditions.push(Prisma.sql`(${sortCol}, h.hostname) ${cmp} (${value}, ${cursor.h})`);
      }
      const dir = desc ? "DESC" : "ASC";
      const rows = await db.$queryRaw<HostRow[]>(
        selectHosts(
          Prisma.join(conditions, " AND "),
          sortSql,
          Prisma.sql`ORDER BY ${Prisma.raw(`${sortSql} ${dir}, h.hostname ${dir}`)} LIMIT ${q.limit + 1}`,
        ),
      );
      const sortValue = (r: HostRow) =>
        r.sort_value instanceof Date ? r.sort_value.toISOString() : r.sort_value;
      return keysetPage(rows, q.limit, toRecord, (last) =>
        encodeCursorJson({ v: sortValue(last), h: last.hostname } satisfies Cursor),
      );
    },

    /** Distinct values of one attribute (for the zone filter), most common first. */
    async attributeValues(name: string, limit = 50): Promise<{ value: string; hosts: number }[]> {
      const rows = await db.$queryRaw<{ value: string; hosts: number }[]>`
        SELECT h.attributes ->> ${name} AS value, count(*)::int AS hosts FROM hosts h
        WHERE h.attributes ? ${name} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${limit}`;
      return rows;
    },

    /** Hostnames matching `text`, for the header search. */
    async search(text: string, limit: number): Promise<{ hostname: string; state: HostState }[]> {
      return db.host.findMany({
        where: { hostname: { contains: text, mode: "insensitive" } },
        select: { hostname: true, state: true },
        orderBy: { hostname: "asc" },
        take: limit,
      });
    },
  };
}
