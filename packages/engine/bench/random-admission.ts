/**
 * Random admission snapshots from a seeded generator: `pools` leaf pools with
 * `gangsPerPool` waiting gangs each. Entitlements leave room for about half
 * the demand, so every run admits some gangs, blocks some queues and leaves
 * many gangs waiting behind others — the work admission really does.
 */
import type { AdmissionGang, AdmissionInput, AdmissionPool, Resources } from "../src/index.ts";

export function randomAdmission(
  random: () => number,
  pools: number,
  gangsPerPool: number,
): AdmissionInput {
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const res = (cpu: number, memory: number, gpu = 0, disk = 0): Resources => ({
    cpu,
    gpu,
    memory,
    disk,
  });
  const out: AdmissionPool[] = [];
  let seq = 0;
  for (let p = 0; p < pools; p++) {
    const gangs: AdmissionGang[] = [];
    let demandCpu = 0;
    for (let g = 0; g < gangsPerPool; g++) {
      const tasks = random() < 0.05 ? int(2, 8) : 1;
      const cpu = tasks * int(1, 4) * 0.5;
      demandCpu += cpu;
      const preemptible = random() >= 0.1;
      gangs.push({
        id: `p${p}-g${g}`,
        priority: int(0, 9),
        seq: seq++,
        resources: res(cpu, tasks * int(64, 1024), random() < 0.02 ? 1 : 0, tasks * 100),
        tasks,
        preemptible,
        revocable: preemptible && random() < 0.1,
        controller: tasks === 1 && random() < 0.05,
      });
    }
    const entitled = demandCpu * (0.3 + random() * 0.4);
    out.push({
      path: `/org${p % 20}/pool${p}`,
      nonSlackEntitlement: res(entitled, entitled * 600, 2, entitled * 200),
      slackEntitlement: res(entitled * 0.2, 0),
      reservation: res(entitled * 0.5, entitled * 300, 1, entitled * 100),
      controllerLimitPercent: random() < 0.5 ? 20 : null,
      allocation: {
        nonRevocable: res(entitled * 0.2, entitled * 100),
        slack: res(0, 0),
        controller: res(0, 0),
        nonPreemptible: res(entitled * 0.1, entitled * 50),
      },
      gangs,
    });
  }
  return { pools: out };
}
