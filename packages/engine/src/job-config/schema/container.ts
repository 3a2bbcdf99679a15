/**
 * The part of Mesos' `ContainerInfo` that Peloton's job files use (its
 * `example/*.yaml`: a Docker image with `parameters`, the unified
 * containerizer's `mesos.image`, host-path `volumes`). Passed through to the
 * host adapter; mesos-sim records it and runs the command on the host
 * (mesos-api.md).
 */
import { z } from "zod";
import { boundedList, boundedText } from "../../limits/bounded.ts";
import {
  MAX_DOCKER_PARAMETERS,
  MAX_NAME_LENGTH,
  MAX_PATH_LENGTH,
  MAX_VALUE_LENGTH,
  MAX_VOLUMES,
} from "../../limits/limits.ts";
import { pelotonEnum } from "../peloton-enum.ts";

const keyValueSchema = z.strictObject({
  key: boundedText(MAX_NAME_LENGTH),
  value: boundedText(MAX_VALUE_LENGTH).default(""),
});

const dockerSchema = z.strictObject({
  image: boundedText(MAX_VALUE_LENGTH, { min: 1, minMessage: "docker.image names the image" }),
  network: pelotonEnum({ HOST: 1, BRIDGE: 2, NONE: 3, USER: 4 }).optional(),
  privileged: z.boolean().optional(),
  parameters: boundedList(keyValueSchema, MAX_DOCKER_PARAMETERS).optional(),
  forcePullImage: z.boolean().optional(),
});

const imageSchema = z.strictObject({
  type: pelotonEnum({ APPC: 1, DOCKER: 2 }),
  docker: z.strictObject({ name: boundedText(MAX_VALUE_LENGTH, { min: 1 }) }).optional(),
  appc: z
    .strictObject({
      name: boundedText(MAX_VALUE_LENGTH, { min: 1 }),
      id: boundedText(MAX_VALUE_LENGTH).optional(),
    })
    .optional(),
  cached: z.boolean().optional(),
});

/** A host path (or image) mounted into the container; `mode` RW = 1, RO = 2. */
const containerVolumeSchema = z.strictObject({
  containerPath: boundedText(MAX_PATH_LENGTH, {
    min: 1,
    minMessage: "containerPath is the path inside the container",
  }),
  hostPath: boundedText(MAX_PATH_LENGTH).optional(),
  mode: pelotonEnum({ RW: 1, RO: 2 }),
  image: imageSchema.optional(),
});

export const containerSchema = z.strictObject({
  type: pelotonEnum({ DOCKER: 1, MESOS: 2 }),
  docker: dockerSchema.optional(),
  mesos: z.strictObject({ image: imageSchema.optional() }).optional(),
  volumes: boundedList(containerVolumeSchema, MAX_VOLUMES).optional(),
  hostname: boundedText(MAX_NAME_LENGTH).optional(),
});
export type ContainerConfig = z.output<typeof containerSchema>;
