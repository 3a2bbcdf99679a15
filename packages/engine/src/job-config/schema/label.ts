import { z } from "zod";

/** Peloton's `peloton.Label`: a key and its value. */
export const labelSchema = z.strictObject({
  key: z.string().min(1, "a label needs a key"),
  value: z.string().default(""),
});

/**
 * A list of labels. Peloton's first API wrapped the list in a `mesos.v1.Labels`
 * message (`labels: {labels: [...]}`), and two of its GPU example jobs still
 * do; that form reads as the same list.
 */
export const labelListSchema = z.union(
  [
    z.array(labelSchema),
    z.strictObject({ labels: z.array(labelSchema) }).transform((wrapped) => wrapped.labels),
  ],
  { error: "labels are a list of {key, value}" },
);
