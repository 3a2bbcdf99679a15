/**
 * Admission per leaf pool (peloton-semantics.md §3, "Admission"): queue order,
 * no overtaking, the three checks, and a reason for every gang left waiting.
 */
import { describe, expect, it } from "vitest";
import {
  type AdmissionReasonCode,
  admit,
  admitPool,
  describeAdmissionReason,
  type PoolAdmission,
  queueOf,
} from "../src/index.ts";
import { cluster, gang, type LeafBuilder, leaf } from "./support/admission-builders.ts";

interface Case {
  name: string;
  pool: LeafBuilder;
  admitted: string[];
  /** Waiting gangs as "id:CODE@position". */
  waiting: string[];
  /** The first waiting gang's sentence. */
  says?: string;
}

const waitingOf = (r: PoolAdmission) =>
  r.waiting.map((w) => `${w.gang.id}:${w.reason.code}@${w.position}`);

const cases: Case[] = [
  // Order
  {
    name: "gangs that fit are admitted in arrival order",
    pool: leaf("/a")
      .entitled({ cpu: 10 })
      .queue(gang("g1").needs({ cpu: 4 }), gang("g2").needs({ cpu: 4 })),
    admitted: ["g1", "g2"],
    waiting: [],
  },
  {
    name: "higher priority first, whatever the arrival",
    pool: leaf("/a").queue(
      gang("low").priority(1),
      gang("high").priority(9),
      gang("mid").priority(5),
    ),
    admitted: ["high", "mid", "low"],
    waiting: [],
  },
  {
    name: "FIFO within a priority (arrival sequence, then id)",
    pool: leaf("/a").queue(gang("b").seq(2), gang("c").seq(1), gang("a").seq(2)),
    admitted: ["c", "a", "b"],
    waiting: [],
  },
  {
    name: "queues drain in order: non-preemptible, controller, revocable, pending",
    pool: leaf("/a")
      .reserve({ cpu: 100 })
      .controllerLimit(100)
      .slackEntitled({ cpu: 10 })
      .queue(
        gang("pending").priority(99),
        gang("revocable").revocable().priority(50),
        gang("controller").controller().priority(10),
        gang("np").nonPreemptible(),
      ),
    admitted: ["np", "controller", "revocable", "pending"],
    waiting: [],
  },
  // Entitlement
  {
    name: "entitlement: a pool at its cpu entitlement admits nothing more",
    pool: leaf("/infra/batch")
      .entitled({ cpu: 12 })
      .alloc({ cpu: 12 })
      .queue(gang("g1").needs({ cpu: 2 })),
    admitted: [],
    waiting: ["g1:POOL_OVER_ENTITLEMENT@1"],
    says: "pool /infra/batch is at its cpu entitlement: 12 of 12 cores allocated, this task needs 2",
  },
  {
    name: "entitlement: admitted gangs count for the next decision (10 + 2 = 12, then 12 + 2 > 12)",
    pool: leaf("/a")
      .entitled({ cpu: 12 })
      .alloc({ cpu: 10 })
      .queue(gang("g1").needs({ cpu: 2 }), gang("g2").needs({ cpu: 2 })),
    admitted: ["g1"],
    waiting: ["g2:POOL_OVER_ENTITLEMENT@1"],
    says: "pool /a is at its cpu entitlement: 12 of 12 cores allocated, this task needs 2",
  },
  {
    name: "entitlement: a gang bigger than what is left (9 + 4 > 12)",
    pool: leaf("/a")
      .entitled({ cpu: 12 })
      .alloc({ cpu: 9 })
      .queue(gang("big").needs({ cpu: 4 }).tasks(4)),
    admitted: [],
    waiting: ["big:POOL_OVER_ENTITLEMENT@1"],
    says: "pool /a has too little cpu entitlement left: 9 of 12 cores allocated, this gang of 4 tasks needs 4",
  },
  {
    name: "entitlement: the first kind that does not fit is named (memory, cpu fits)",
    pool: leaf("/a")
      .entitled({ cpu: 10, memory: 1000 })
      .alloc({ memory: 900 })
      .queue(gang("g").needs({ cpu: 1, memory: 200 })),
    admitted: [],
    waiting: ["g:POOL_OVER_ENTITLEMENT@1"],
    says: "pool /a has too little memory entitlement left: 900 of 1000 MB allocated, this task needs 200",
  },
  {
    name: "entitlement: compared with ε (0.1 + 0.2 fits in 0.3)",
    pool: leaf("/a")
      .entitled({ cpu: 0.3 })
      .alloc({ cpu: 0.1 })
      .queue(gang("g").needs({ cpu: 0.2 })),
    admitted: ["g"],
    waiting: [],
  },
  // Slack
  {
    name: "revocable: checked against the slack entitlement, not the non-slack one",
    pool: leaf("/a")
      .entitled({ cpu: 0 })
      .slackEntitled({ cpu: 4 })
      .queue(gang("r").revocable().needs({ cpu: 4 })),
    admitted: ["r"],
    waiting: [],
  },
  {
    name: "revocable: slack allocation + gang over the slack entitlement (3 + 2 > 4)",
    pool: leaf("/a")
      .slackEntitled({ cpu: 4 })
      .slackAlloc({ cpu: 3 })
      .queue(gang("r").revocable().needs({ cpu: 2 })),
    admitted: [],
    waiting: ["r:POOL_OVER_SLACK_ENTITLEMENT@1"],
    says: "pool /a has too little revocable cpu entitlement left: 3 of 4 cores allocated, this task needs 2",
  },
  // Controller limit
  {
    name: "controller: 10% of a 20-core reservation is 2 cores; 2 held + 1 > 2",
    pool: leaf("/a")
      .reserve({ cpu: 20 })
      .controllerLimit(10)
      .controllerAlloc({ cpu: 2 })
      .queue(gang("c").controller().needs({ cpu: 1 })),
    admitted: [],
    waiting: ["c:CONTROLLER_LIMIT@1"],
    says: "pool /a's controller tasks are at their cpu limit (10% of the reservation): 2 of 2 cores allocated, this task needs 1",
  },
  {
    name: "controller: within the limit (1 + 1 ≤ 2)",
    pool: leaf("/a")
      .reserve({ cpu: 20 })
      .controllerLimit(10)
      .controllerAlloc({ cpu: 1 })
      .queue(gang("c").controller().needs({ cpu: 1 })),
    admitted: ["c"],
    waiting: [],
  },
  {
    name: "controller: a pool without a controller limit admits it",
    pool: leaf("/a").queue(gang("c").controller().needs({ cpu: 5 })),
    admitted: ["c"],
    waiting: [],
  },
  // Reservation
  {
    name: "reservation: non-preemptible work stays within the reservation (8 + 4 > 10) though entitled",
    pool: leaf("/a")
      .entitled({ cpu: 50 })
      .reserve({ cpu: 10 })
      .nonPreemptibleAlloc({ cpu: 8 })
      .queue(gang("np").nonPreemptible().needs({ cpu: 4 })),
    admitted: [],
    waiting: ["np:RESERVATION_EXHAUSTED@1"],
    says: "pool /a's cpu reservation is nearly used up by non-preemptible tasks, which never run on borrowed resources: 8 of 10 cores allocated, this task needs 4",
  },
  {
    name: "reservation: preemptible work may borrow beyond it",
    pool: leaf("/a")
      .entitled({ cpu: 50 })
      .reserve({ cpu: 10 })
      .queue(gang("p").needs({ cpu: 40 })),
    admitted: ["p"],
    waiting: [],
  },
  {
    name: "check order: the entitlement refusal is reported before the reservation one",
    pool: leaf("/a")
      .entitled({ cpu: 5 })
      .reserve({ cpu: 6 })
      .nonPreemptibleAlloc({ cpu: 1 })
      .queue(gang("np").nonPreemptible().needs({ cpu: 6 })),
    admitted: [],
    waiting: ["np:POOL_OVER_ENTITLEMENT@1"],
  },
  // No overtaking
  {
    name: "a gang that does not fit stops its queue: the small ones behind wait",
    pool: leaf("/a")
      .entitled({ cpu: 10 })
      .queue(
        gang("big").needs({ cpu: 20 }),
        gang("s1").needs({ cpu: 1 }),
        gang("s2").needs({ cpu: 1 }),
      ),
    admitted: [],
    waiting: [
      "big:POOL_OVER_ENTITLEMENT@1",
      "s1:BEHIND_BLOCKED_GANG@2",
      "s2:BEHIND_BLOCKED_GANG@3",
    ],
  },
  {
    name: "a blocked queue does not stop the next queue",
    pool: leaf("/a")
      .entitled({ cpu: 10 })
      .reserve({ cpu: 4 })
      .nonPreemptibleAlloc({ cpu: 2 })
      .queue(
        gang("np").nonPreemptible().needs({ cpu: 3 }),
        gang("np2").nonPreemptible().needs({ cpu: 1 }),
        gang("p").needs({ cpu: 3 }),
      ),
    admitted: ["p"],
    waiting: ["np:RESERVATION_EXHAUSTED@1", "np2:BEHIND_BLOCKED_GANG@2"],
  },
  // Gangs that can never fit are set aside (issue 14)
  {
    name: "a non-preemptible gang above the whole reservation is set aside; the one behind goes ahead",
    pool: leaf("/a")
      .entitled({ cpu: 10 })
      .reserve({ cpu: 2 })
      .queue(
        gang("np").nonPreemptible().needs({ cpu: 3 }),
        gang("np2").nonPreemptible().needs({ cpu: 1 }),
      ),
    admitted: ["np2"],
    waiting: ["np:CAN_NEVER_FIT@0"],
    says: "can never fit in pool /a: this task is non-preemptible and needs 3 cpu cores, above the pool's cpu reservation of 2 (non-preemptible work never runs on borrowed resources); set aside so the gangs behind it go ahead, until the hosts or the pool change",
  },
  {
    name: "a gang above the pool's limit is set aside",
    pool: leaf("/a")
      .limited({ memory: 512 })
      .queue(
        gang("big").tasks(4).needs({ cpu: 4, memory: 1024 }),
        gang("small").needs({ cpu: 1, memory: 256 }),
      ),
    admitted: ["small"],
    waiting: ["big:CAN_NEVER_FIT@0"],
    says: "can never fit in pool /a: this gang of 4 tasks needs 1024 MB of memory, above the pool's memory limit of 512; set aside so the gangs behind it go ahead, until the hosts or the pool change",
  },
  {
    name: "a revocable gang is not held to the limit (slack has none)",
    pool: leaf("/a")
      .limited({ cpu: 1 })
      .slackEntitled({ cpu: 8 })
      .queue(gang("r").revocable().needs({ cpu: 4 })),
    admitted: ["r"],
    waiting: [],
  },
  {
    name: "a set-aside gang behind a blocked one still says it can never fit",
    pool: leaf("/a")
      .entitled({ cpu: 2 })
      .limited({ cpu: 5 })
      .queue(
        gang("wait").needs({ cpu: 3 }),
        gang("never").needs({ cpu: 6 }),
        gang("after").needs({ cpu: 1 }),
      ),
    admitted: [],
    waiting: [
      "wait:POOL_OVER_ENTITLEMENT@1",
      "never:CAN_NEVER_FIT@0",
      "after:BEHIND_BLOCKED_GANG@2",
    ],
  },
];

describe("admission: gangs that could never run on the hosts", () => {
  const hosts = cluster({ cpu: 4, memory: 4096, ports: 2 }, { cpu: 8, memory: 1024, ports: 2 });
  const run = (...gangs: ReturnType<typeof gang>[]) =>
    admit({
      pools: [
        leaf("/a")
          .queue(...gangs)
          .build(),
      ],
      cluster: hosts,
    }).pools[0]!;
  const said = (r: PoolAdmission) => r.waiting.map((w) => describeAdmissionReason(w.reason));

  it("a task larger than every host is set aside with the largest host's number", () => {
    const r = run(
      gang("huge").needs({ cpu: 16 }).eachTask({ cpu: 16 }),
      gang("ok").eachTask({ cpu: 1 }),
    );
    expect(r.admitted.map((a) => a.gang.id)).toEqual(["ok"]);
    expect(said(r)).toEqual([
      "can never fit in pool /a: a task needs 16 cpu cores, and the largest host (of 2) has 8 cpu cores; set aside so the gangs behind it go ahead, until the hosts or the pool change",
    ]);
  });

  it("each kind fits some host but no host has them all", () => {
    const r = run(gang("odd").needs({ cpu: 6, memory: 2048 }).eachTask({ cpu: 6, memory: 2048 }));
    expect(said(r)[0]).toContain(
      "no host (of 2) has all a task needs at once: 6 cpu cores, 2048 MB of memory",
    );
  });

  it("more ports than any host offers", () => {
    const r = run(gang("p").eachTask({ cpu: 1 }, 3));
    expect(said(r)[0]).toContain("a task needs 3 ports, and any of the 2 hosts offers at most 2");
  });

  it("a gang whose tasks each fit a host but together exceed the cluster", () => {
    const r = run(gang("g").tasks(4).needs({ cpu: 16 }).eachTask({ cpu: 4 }));
    expect(said(r)[0]).toContain(
      "this gang of 4 tasks needs 16 cpu cores, more than the whole cluster's 12",
    );
  });

  it("once a large enough host joins, the same gang is admitted", () => {
    const bigger = cluster({ cpu: 4, memory: 4096 }, { cpu: 32, memory: 4096 });
    const r = admit({
      pools: [
        leaf("/a")
          .queue(gang("huge").needs({ cpu: 16 }).eachTask({ cpu: 16 }))
          .build(),
      ],
      cluster: bigger,
    }).pools[0]!;
    expect(r.admitted.map((a) => a.gang.id)).toEqual(["huge"]);
  });

  it("no hosts registered yet: nothing is judged against them", () => {
    const r = admit({
      pools: [
        leaf("/a")
          .queue(gang("g").needs({ cpu: 1 }).eachTask({ cpu: 1 }))
          .build(),
      ],
      cluster: { capacity: { cpu: 0, gpu: 0, memory: 0, disk: 0 }, hosts: [] },
    }).pools[0]!;
    expect(r.admitted.map((a) => a.gang.id)).toEqual(["g"]);
  });
});

describe("admission", () => {
  it.each(cases)("$name", ({ pool, admitted, waiting, says }) => {
    const result = admitPool(pool.build());
    expect(result.admitted.map((a) => a.gang.id)).toEqual(admitted);
    expect(waitingOf(result)).toEqual(waiting);
    if (says) expect(describeAdmissionReason(result.waiting[0]!.reason)).toBe(says);
  });

  it("a gang behind a blocked one names it and says why it is blocked", () => {
    const result = admitPool(
      leaf("/infra/batch")
        .entitled({ cpu: 12 })
        .alloc({ cpu: 12 })
        .queue(gang("job-1/0").needs({ cpu: 2 }), gang("job-2/0").needs({ cpu: 1 }))
        .build(),
    );
    const behind = result.waiting[1]!;
    expect(behind.reason).toMatchObject({
      code: "BEHIND_BLOCKED_GANG",
      blockedBy: "job-1/0",
      queue: "PENDING",
    });
    expect(describeAdmissionReason(behind.reason)).toBe(
      "waiting in pool /infra/batch's pending queue behind job-1/0, which does not fit: pool /infra/batch is at its cpu entitlement: 12 of 12 cores allocated, this task needs 2",
    );
  });

  it("the allocation after admission adds each gang to every sort it belongs to", () => {
    const result = admitPool(
      leaf("/a")
        .reserve({ cpu: 10, memory: 100 })
        .controllerLimit(50)
        .queue(
          gang("c").controller().nonPreemptible().needs({ cpu: 2, memory: 10 }),
          gang("p").needs({ cpu: 1 }),
        )
        .build(),
    );
    // c: non-revocable, controller and non-preemptible; p: non-revocable only.
    expect(result.allocation).toEqual({
      nonRevocable: { cpu: 3, gpu: 0, memory: 10, disk: 0 },
      slack: { cpu: 0, gpu: 0, memory: 0, disk: 0 },
      controller: { cpu: 2, gpu: 0, memory: 10, disk: 0 },
      nonPreemptible: { cpu: 2, gpu: 0, memory: 10, disk: 0 },
    });
  });

  it("pools are decided independently, in input order", () => {
    const result = admit({
      pools: [
        leaf("/full")
          .entitled({ cpu: 0 })
          .queue(gang("x").needs({ cpu: 1 }))
          .build(),
        leaf("/free")
          .queue(gang("y").needs({ cpu: 1 }))
          .build(),
      ],
    });
    expect(result.pools.map((p) => [p.path, p.admitted.length, p.waiting.length])).toEqual([
      ["/full", 0, 1],
      ["/free", 1, 0],
    ]);
  });

  it("every gang is either admitted or waiting with a reason", () => {
    const pool = leaf("/a")
      .entitled({ cpu: 5 })
      .reserve({ cpu: 2 })
      .queue(
        ...Array.from({ length: 30 }, (_, i) => {
          const g = gang(`g${i}`)
            .needs({ cpu: 1 })
            .priority(i % 3);
          return i % 4 === 0 ? g.nonPreemptible() : g;
        }),
      )
      .build();
    const result = admitPool(pool);
    expect(result.admitted.length + result.waiting.length).toBe(30);
    const codes = new Set<AdmissionReasonCode>(result.waiting.map((w) => w.reason.code));
    expect([...codes].sort()).toEqual([
      "BEHIND_BLOCKED_GANG",
      "POOL_OVER_ENTITLEMENT",
      "RESERVATION_EXHAUSTED",
    ]);
    for (const w of result.waiting)
      expect(describeAdmissionReason(w.reason)).toMatch(/^(pool|waiting|can never fit)/);
  });
});

describe("queueOf: the first special queue a gang qualifies for (Peloton's TryAdmit order)", () => {
  const cases = [
    {
      name: "non-preemptible, even if a controller",
      gang: gang("g").nonPreemptible().controller(),
      queue: "NON_PREEMPTIBLE",
    },
    { name: "a preemptible controller", gang: gang("g").controller(), queue: "CONTROLLER" },
    { name: "a revocable gang", gang: gang("g").revocable(), queue: "REVOCABLE" },
    { name: "anything else", gang: gang("g"), queue: "PENDING" },
  ] as const;
  it.each(cases)("$name", ({ gang: g, queue }) => expect(queueOf(g.build(0))).toBe(queue));
});
