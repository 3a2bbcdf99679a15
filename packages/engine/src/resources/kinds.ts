/**
 * The four resource kinds, always processed in this order (peloton-semantics.md:
 * "The four kinds are always processed in this order: cpu, gpu, memory, disk").
 * Hot loops index arrays by the kind's position in this list.
 */
export const RESOURCE_KINDS = ["cpu", "gpu", "memory", "disk"] as const;

export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** Number of kinds: the stride of every `Float64Array` laid out as `[pool * KIND_COUNT + kind]`. */
export const KIND_COUNT = 4;

/** Array positions of the kinds, for code that works on flat arrays. */
export const CPU = 0;
export const GPU = 1;
export const MEMORY = 2;
export const DISK = 3;

export function isResourceKind(value: string): value is ResourceKind {
  return value === "cpu" || value === "gpu" || value === "memory" || value === "disk";
}

/** Units as the semantics document states them: cores, whole devices, MB. */
export const KIND_UNITS: Readonly<Record<ResourceKind, string>> = {
  cpu: "cpu",
  gpu: "gpu",
  memory: "MB memory",
  disk: "MB disk",
};
