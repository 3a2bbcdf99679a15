/**
 * The part of Mesos' `ContainerInfo` that Peloton's job files use (its
 * `example/*.yaml`: a Docker image with `parameters`, the unified
 * containerizer's `mesos.image`, host-path `volumes`). Passed through to the
 * host adapter; mesos-sim records it and runs the command on the host
 * (mesos-api.md).
 */
import { z } from "zod";
import { pelotonEnum } from "../peloton-enum.ts";

const keyValueSchema = z.strictObject({ key: z.string(), value: z.string().default("") });

const dockerSchema = z.strictObject({
  image: z.string().min(1, "docker.image names the image"),
  network: pelotonEnum({ HOST: 1, BRIDGE: 2, NONE: 3, USER: 4 }).optional(),
  privileged: z.boolean().optional(),
  parameters: z.array(keyValueSchema).optional(),
  forcePullImage: z.boolean().optional(),
});

const imageSchema = z.strictObject({
  type: pelotonEnum({ APPC: 1, DOCKER: 2 }),
  docker: z.strictObject({ name: z.string().min(1) }).optional(),
  appc: z.strictObject({ name: z.string().min(1), id: z.string().optional() }).optional(),
  cached: z.boolean().optional(),
});

/** A host path (or image) mounted into the container; `mode` RW = 1, RO = 2. */
const containerVolumeSchema = z.strictObject({
  containerPath: z.string().min(1, "containerPath is the path inside the container"),
  hostPath: z.string().optional(),
  mode: pelotonEnum({ RW: 1, RO: 2 }),
  image: imageSchema.optional(),
});

export const containerSchema = z.strictObject({
  type: pelotonEnum({ DOCKER: 1, MESOS: 2 }),
  docker: dockerSchema.optional(),
  mesos: z.strictObject({ image: imageSchema.optional() }).optional(),
  volumes: z.array(containerVolumeSchema).optional(),
  hostname: z.string().optional(),
});
export type ContainerConfig = z.output<typeof containerSchema>;
