/**
 * The placement pipeline end to end: candidates → filters → scorers → pick,
 * the batch's own placements seen by later tasks, and "why pending" counts.
 * Each case draws its hosts.
 */
import { describe, expect, it } from "vitest";
import { describePlacement, describeUnplaced, placeTasks } from "../src/index.ts";
import { host, hostIs, not, task, tasksLabelled, tasksOf } from "./support/placement-builders.ts";
import { place, rejectedHosts } from "./support/placement-run.ts";

describe("choosing a host", () => {
  it.each([
    {
      name: "PACK_HOST takes the host left fullest",
      hosts: `
        h1  cpu 8 free 8
        h2  cpu 8 free 3   ← 2 cpu leave 1: the fullest after placement
        h3  cpu 8 free 6`,
      setup: [host("h1"), host("h2").free({ cpu: 3 }), host("h3").free({ cpu: 6 })],
      task: task("t").cpu(2),
      want: "h2",
    },
    {
      name: "SPREAD_JOB takes a host without the job, in the zone with fewest",
      hosts: `
        h1  zone a  web ×1
        h2  zone a
        h3  zone b        ← no web here, none in zone b`,
      setup: [host("h1").zone("a").jobTasks("web", 1), host("h2").zone("a"), host("h3").zone("b")],
      task: task("t").job("web").spread(),
      want: "h3",
    },
    {
      name: "sticky: the previous host wins over a tighter one",
      hosts: `
        h1  cpu free 8   ← ran here before
        h2  cpu free 3`,
      // h1: pack (2/8 + 128/8192 + 0)/3 = 8.85, sticky 100 → 54.4; h2: pack 29.7, sticky 0 → 14.8
      setup: [host("h1"), host("h2").free({ cpu: 3 })],
      task: task("t").cpu(2).ranOn("h1"),
      want: "h1",
    },
    {
      name: "ties go to the first hostname, whatever the input order",
      hosts: `
        h2, h1, h3  identical`,
      setup: [host("h2"), host("h1"), host("h3")],
      task: task("t"),
      want: "h1",
    },
    {
      name: "GPU task on the GPU host",
      hosts: `
        h1  no GPU
        h2  4 GPUs`,
      setup: [host("h1"), host("h2").gpus(4)],
      task: task("t").gpus(1),
      want: "h2",
    },
    {
      name: "plain task avoids the GPU host even when it is the tighter one",
      hosts: `
        h1  cpu free 8
        h2  cpu free 2, 4 GPUs`,
      setup: [host("h1"), host("h2").gpus(4).free({ cpu: 2 })],
      task: task("t").cpu(2),
      want: "h1",
    },
    {
      name: "a task naming peloton/exclusive may use the exclusive host",
      hosts: `
        h1  ordinary
        h2  peloton/exclusive=ml`,
      setup: [host("h1"), host("h2").exclusive("ml")],
      task: task("t").constraint(hostIs("peloton/exclusive", "ml")),
      want: "h2",
    },
    {
      name: "every host answers to its hostname",
      hosts: `
        h1, h2, h3`,
      setup: [host("h1"), host("h2"), host("h3")],
      task: task("t").constraint(hostIs("hostname", "h2")),
      want: "h2",
    },
    {
      name: "NOT: anywhere but zone a",
      hosts: `
        h1  zone a
        h2  zone b`,
      setup: [host("h1").zone("a"), host("h2").zone("b")],
      task: task("t").constraint(not(hostIs("zone", "a"))),
      want: "h2",
    },
    {
      name: "a stateful instance goes to its volume's host, not the tighter one",
      hosts: `
        h1  cpu free 2
        h2  cpu free 8   ← its volume`,
      setup: [host("h1").free({ cpu: 2 }), host("h2")],
      task: task("t").volumeOn("h2"),
      want: "h2",
    },
  ])("$name", ({ setup, task: t, want }) => {
    expect(place(setup, [t]).hostOf("t")).toBe(want);
  });
});

describe("the batch sees its own placements", () => {
  it("a host filled by one task is not offered to the next", () => {
    //   h1  cpu free 3   ← t1 (tightest), then only 1 left
    //   h2  cpu free 8   ← t2
    const r = place(
      [host("h1").free({ cpu: 3 }), host("h2")],
      [task("t1").cpu(2), task("t2").cpu(2)],
    );
    expect([r.hostOf("t1"), r.hostOf("t2")]).toEqual(["h1", "h2"]);
  });

  it("anti-affinity (no task app=web on the host) counts tasks placed in this batch", () => {
    //   h1, h2: three web tasks that each want a host without another web task
    const c = tasksLabelled("app", "web", "EQUAL", 0);
    const web = (id: string) => task(id).label("app", "web").constraint(c);
    const r = place([host("h1"), host("h2")], [web("w1"), web("w2"), web("w3")]);
    expect(new Set([r.hostOf("w1"), r.hostOf("w2")])).toEqual(new Set(["h1", "h2"]));
    expect(r.unplacedOf("w3").rejections).toEqual({ CONSTRAINT_MISMATCH: 2 });
  });

  it("spreading counts the job's tasks placed in this batch", () => {
    //   h1 zone a, h2 zone a, h3 zone b, h4 zone b: four tasks of one job, one per host
    const hosts = [
      host("h1").zone("a"),
      host("h2").zone("a"),
      host("h3").zone("b"),
      host("h4").zone("b"),
    ];
    const r = place(
      hosts,
      tasksOf("w", 4, (t) => t.job("web").spread()),
    );
    expect(new Set(r.placements.map((p) => p.hostname)).size).toBe(4);
  });

  it("ports: the lowest free dynamic ports, static ones exactly, none twice", () => {
    //   h1  ports 31000–31009
    const r = place(
      [host("h1")],
      [
        task("t1").ports(2),
        task("t2").ports(1, 31005),
        task("t3").ports(0, 31005),
        task("t4").ports(2, 31003),
      ],
    );
    expect(r.placement("t1").ports).toEqual({ static: [], dynamic: [31000, 31001] });
    expect(r.placement("t2").ports).toEqual({ static: [31005], dynamic: [31002] });
    expect(r.unplacedOf("t3").rejections).toEqual({ STATIC_PORT_TAKEN: 1 });
    // 31003 is its own static port and 31005 is taken: the dynamic ones go around them.
    expect(r.placement("t4").ports).toEqual({ static: [31003], dynamic: [31004, 31006] });
  });

  it("the input is not changed", () => {
    const hosts = [host("h1").taskLabel("app", "db").jobTasks("web", 1).build()];
    const tasks = [task("t1").job("web").label("app", "web").ports(1).build()];
    const before = structuredClone({ hosts, tasks });
    placeTasks(hosts, tasks);
    expect({ hosts, tasks }).toEqual(before);
  });
});

describe("why pending: every host counted once, under its first rejection", () => {
  it("one host per filter", () => {
    //   h1  DRAINING
    //   h2  DOWN
    //   h3  GPU host              (task asks none)
    //   h4  peloton/exclusive
    //   h5  zone b                (task wants zone a)
    //   h6  cpu free 1            (task asks 2)
    //   h7  no ports              (task asks 1 dynamic)
    const r = place(
      [
        host("h1").zone("a").state("DRAINING"),
        host("h2").zone("a").state("DOWN"),
        host("h3").zone("a").gpus(4),
        host("h4").zone("a").exclusive(),
        host("h5").zone("b"),
        host("h6").zone("a").free({ cpu: 1 }),
        host("h7").zone("a").ports(),
      ],
      [task("t").cpu(2).ports(1).constraint(hostIs("zone", "a"))],
    );
    const u = r.unplacedOf("t");
    expect(u.reason).toBe("NO_HOST_FITS");
    expect(u.rejections).toEqual({
      HOST_DRAINING: 1,
      HOST_DOWN: 1,
      GPU_HOST_RESERVED: 1,
      EXCLUSIVE_HOST: 1,
      CONSTRAINT_MISMATCH: 1,
      INSUFFICIENT_CPU: 1,
      INSUFFICIENT_PORTS: 1,
    });
    expect(rejectedHosts(u)).toBe(7);
    expect(u.hostsEvaluated).toBe(7);
    expect(describeUnplaced(u)).toBe(
      "no host fits: 1 host is draining, 1 host is down, 1 host is a GPU host kept for GPU tasks, " +
        "1 host is exclusive (peloton/exclusive) and the constraint does not name it, " +
        "1 host mismatches constraint zone = a, 1 host lacks 2 cpu, 1 host lacks 1 free port",
    );
  });

  it("a host failing several filters counts under the first (state, then constraint, then resources)", () => {
    //   h1  DRAINING, zone b, cpu free 1
    //   h2  zone b, cpu free 1
    //   h3  cpu free 1, 4 GB short of memory too
    const r = place(
      [
        host("h1").zone("b").state("DRAINING").free({ cpu: 1 }),
        host("h2").zone("b").free({ cpu: 1 }),
        host("h3").zone("a").free({ cpu: 1, memory: 0 }),
      ],
      [task("t").cpu(2).constraint(hostIs("zone", "a"))],
    );
    expect(r.unplacedOf("t").rejections).toEqual({
      HOST_DRAINING: 1,
      CONSTRAINT_MISMATCH: 1,
      INSUFFICIENT_CPU: 1,
    });
  });

  it("most hosts first in the sentence", () => {
    //   h1–h3  cpu free 1;  h4  DRAINING
    const r = place(
      [
        host("h1").free({ cpu: 1 }),
        host("h2").free({ cpu: 1 }),
        host("h3").free({ cpu: 1 }),
        host("h4").state("DRAINING"),
      ],
      [task("t").cpu(2)],
    );
    expect(describeUnplaced(r.unplacedOf("t"))).toBe(
      "no host fits: 3 hosts lack 2 cpu, 1 host is draining",
    );
  });

  it("a stateful instance whose volume host is full: the others hold not its volume", () => {
    //   h1, h2  roomy;  h3  cpu free 0  ← its volume
    const r = place(
      [host("h1"), host("h2"), host("h3").free({ cpu: 0 })],
      [task("t").volumeOn("h3")],
    );
    const u = r.unplacedOf("t");
    expect(u.rejections).toEqual({ VOLUME_ON_OTHER_HOST: 2, INSUFFICIENT_CPU: 1 });
    expect(describeUnplaced(u)).toBe(
      "no host fits: 2 hosts do not hold its volume (on h3), 1 host lacks 1 cpu",
    );
  });

  it("a volume host missing from the snapshot: every host is the wrong one", () => {
    const r = place([host("h1"), host("h2")], [task("t").volumeOn("gone")]);
    expect(r.unplacedOf("t").rejections).toEqual({ VOLUME_ON_OTHER_HOST: 2 });
  });

  it("no hosts at all", () => {
    const r = place([], [task("t")]);
    expect(r.unplacedOf("t")).toMatchObject({
      reason: "NO_HOSTS",
      rejections: {},
      hostsEvaluated: 0,
    });
    expect(describeUnplaced(r.unplacedOf("t"))).toBe("no hosts to place on");
  });
});

describe("a remembered failure stays true", () => {
  it("later tasks with the same asks get the same counts, updated for hosts that changed", () => {
    //   h1  cpu free 2;  h2  cpu free 2
    //   big1 (4 cpu) fails; small (1 cpu) lands on h1; big2 (4 cpu) fails the same way
    const big = (id: string) => task(id).cpu(4);
    const r = place(
      [host("h1").free({ cpu: 2 }), host("h2").free({ cpu: 2 })],
      [big("big1"), task("small").cpu(1), big("big2")],
    );
    expect(r.hostOf("small")).toBeDefined();
    expect(r.unplacedOf("big1").rejections).toEqual({ INSUFFICIENT_CPU: 2 });
    expect(r.unplacedOf("big2").rejections).toEqual({ INSUFFICIENT_CPU: 2 });
  });

  it("and is dropped when a changed host fits again (a gang given back)", () => {
    //   h1  cpu 8
    //   gang g: a (6 cpu) lands on h1, x1 (4 cpu) then fails, b (100 cpu) fails → g undone
    //   x2 (4 cpu, same asks as x1) fits on h1 again
    const r = place(
      [host("h1")],
      [
        task("a").cpu(6).gang("g"),
        task("x1").cpu(4).gang("g"),
        task("b").cpu(100).gang("g"),
        task("x2").cpu(4),
      ],
    );
    expect(r.hostOf("x2")).toBe("h1");
  });
});

describe("scoring a bounded number of hosts from a rotating offset", () => {
  //   h1–h4 identical: with hostsToScore 1, the first feasible host from the offset wins
  const hosts = [host("h1"), host("h2"), host("h3"), host("h4")];
  it("each task starts where the previous one stopped", () => {
    const r = place(
      hosts,
      tasksOf("t", 3, (t) => t),
      { hostsToScore: 1 },
    );
    expect(r.placements.map((p) => p.hostname)).toEqual(["h1", "h2", "h3"]);
    expect(r.nextOffset).toBe(3);
  });
  it("the next batch continues from nextOffset", () => {
    const r = place(
      hosts,
      tasksOf("t", 2, (t) => t),
      { hostsToScore: 1, startOffset: 3 },
    );
    expect(r.placements.map((p) => p.hostname)).toEqual(["h4", "h1"]);
  });
  it("hosts that do not fit are passed over, not scored", () => {
    //   h1 DOWN, h2 roomy, h3 DOWN, h4 roomy
    const r = place(
      [host("h1").state("DOWN"), host("h2"), host("h3").state("DOWN"), host("h4")],
      tasksOf("t", 2, (t) => t),
      { hostsToScore: 1 },
    );
    expect(r.placements.map((p) => [p.hostname, p.hostsEvaluated, p.hostsScored])).toEqual([
      ["h2", 2, 1],
      ["h4", 2, 1],
    ]);
  });
  it("the previous host is looked at even outside the window", () => {
    const r = place(hosts, [task("t").ranOn("h4")], { hostsToScore: 1 });
    expect(r.hostOf("t")).toBe("h4");
  });
});

describe("why this host", () => {
  it("the chosen host's score breakdown", () => {
    //   h1  cpu 8 free 4, memory 8192, disk 100000
    // pack: cpu (8−4+2)/8 = 0.75, memory 128/8192 = 0.015625, disk 0 → 100 × 0.765625/3 = 25.52
    const r = place([host("h1").free({ cpu: 4 })], [task("t").cpu(2)]);
    const p = r.placement("t");
    expect(p.score.pack).toBeCloseTo(25.520833, 5);
    expect(p.score.total).toBeCloseTo(25.520833, 5);
    expect(p).toMatchObject({ hostname: "h1", agentId: "agent-h1", strategy: "PACK_HOST" });
    expect(describePlacement(p)).toBe("on h1, score 25.52 (pack 25.52) — best of 1 feasible host");
  });
});

describe("bad input is refused whole, each problem named", () => {
  it("lists every problem and places nothing", () => {
    const h = host("h1").build();
    const result = placeTasks(
      [
        h,
        { ...h, free: { ...h.free, cpu: -1 } },
        { ...host("h2").build(), freePorts: [{ begin: 9, end: 8 }] },
      ],
      [
        task("t").build(),
        { ...task("t").build(), resources: { cpu: Number.NaN, gpu: 0, memory: 0, disk: 0 } },
        task("u").ports(1.5, 80, 80, 70000).build(),
      ],
      { hostsToScore: 0 },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { code: "DUPLICATE_HOSTNAME", hostname: "h1" },
      { code: "INVALID_AMOUNT", subject: "host", id: "h1", field: "free.cpu", value: -1 },
      { code: "INVALID_PORT_RANGE", hostname: "h2", range: { begin: 9, end: 8 } },
      { code: "DUPLICATE_TASK_ID", taskId: "t" },
      {
        code: "INVALID_AMOUNT",
        subject: "task",
        id: "t",
        field: "resources.cpu",
        value: Number.NaN,
      },
      { code: "INVALID_PORT_REQUEST", taskId: "u", field: "ports.dynamic", value: 1.5 },
      { code: "INVALID_PORT_REQUEST", taskId: "u", field: "ports.static[1]", value: 80 },
      { code: "INVALID_PORT_REQUEST", taskId: "u", field: "ports.static[2]", value: 70000 },
      { code: "INVALID_OPTION", field: "hostsToScore", value: 0 },
    ]);
  });
});
