import type { ResourceKind } from "@peloton/engine";
import type { NewPool } from "@peloton/storage";

type Res = Partial<Record<ResourceKind, [reservation: number, limit: number, share: number]>>;

interface DemoPool {
  path: string;
  owningTeam: string;
  description: string;
  resources: Res;
}

/**
 * The demo pool tree, shaped like Peloton's example (`/DefaultResPool` plus
 * team pools). Reservations fit the demo cluster of 8 agents (64 cores,
 * 256 GiB, 8 GPUs): top-level cpu reservations sum to 56 of 64, and /infra
 * keeps 4 of its 24 cores unreserved so that a team lead can raise batch's.
 *
 *   /
 *   ├── DefaultResPool          cpu 8   mem 32 GiB
 *   ├── infra                   cpu 24  mem 96 GiB
 *   │   ├── batch               cpu 8
 *   │   └── services            cpu 12
 *   ├── ml                      cpu 16  mem 64 GiB  gpu 6
 *   │   └── training            cpu 16  gpu 6
 *   └── web                     cpu 8   mem 32 GiB
 */
export const DEMO_POOLS: DemoPool[] = [
  {
    path: "/DefaultResPool",
    owningTeam: "peloton",
    description: "Default pool for jobs that do not name one",
    resources: {
      cpu: [8, 64, 1],
      memory: [32768, 262144, 1],
      disk: [100000, 800000, 1],
      gpu: [0, 0, 1],
    },
  },
  {
    path: "/infra",
    owningTeam: "infra",
    description: "Infrastructure team",
    resources: {
      cpu: [24, 48, 2],
      memory: [98304, 196608, 2],
      disk: [300000, 600000, 2],
      gpu: [0, 0, 1],
    },
  },
  {
    path: "/infra/batch",
    owningTeam: "infra",
    description: "Nightly batch pipelines",
    resources: {
      cpu: [8, 48, 1],
      memory: [49152, 196608, 1],
      disk: [150000, 600000, 1],
      gpu: [0, 0, 1],
    },
  },
  {
    path: "/infra/services",
    owningTeam: "infra",
    description: "Long-running infrastructure services",
    resources: {
      cpu: [12, 24, 1],
      memory: [49152, 98304, 1],
      disk: [150000, 300000, 1],
      gpu: [0, 0, 1],
    },
  },
  {
    path: "/ml",
    owningTeam: "ml-platform",
    description: "Machine learning platform",
    resources: {
      cpu: [16, 48, 1],
      memory: [65536, 196608, 1],
      disk: [200000, 600000, 1],
      gpu: [6, 8, 1],
    },
  },
  {
    path: "/ml/training",
    owningTeam: "ml-platform",
    description: "Model training on GPU hosts",
    resources: {
      cpu: [16, 48, 1],
      memory: [65536, 196608, 1],
      disk: [200000, 600000, 1],
      gpu: [6, 8, 1],
    },
  },
  {
    path: "/web",
    owningTeam: "web",
    description: "Web frontends",
    resources: {
      cpu: [8, 32, 1],
      memory: [32768, 131072, 1],
      disk: [50000, 200000, 1],
      gpu: [0, 0, 1],
    },
  },
];

export function demoPoolNames(): string[] {
  return DEMO_POOLS.map((p) => p.path.split("/").pop()!);
}

export function toNewPool(p: DemoPool, parentId: string): NewPool {
  const resources: NewPool["resources"] = {};
  for (const [kind, v] of Object.entries(p.resources) as [
    ResourceKind,
    [number, number, number],
  ][]) {
    resources[kind] = { reservation: v[0], limit: v[1], share: v[2], type: "ELASTIC" };
  }
  return {
    path: p.path,
    name: p.path.split("/").pop()!,
    parentId,
    owningTeam: p.owningTeam,
    description: p.description,
    resources,
  };
}
