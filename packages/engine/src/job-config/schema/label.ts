import { z } from "zod";
import { boundedList, boundedText } from "../../limits/bounded.ts";
import { MAX_LABELS, MAX_NAME_LENGTH, MAX_VALUE_LENGTH } from "../../limits/limits.ts";

/** Peloton's `peloton.Label`: a key and its value. */
export const labelSchema = z.strictObject({
  key: boundedText(MAX_NAME_LENGTH, { min: 1, minMessage: "a label needs a key" }),
  value: boundedText(MAX_VALUE_LENGTH).default(""),
});

/**
 * A list of labels. Peloton's first API wrapped the list in a `mesos.v1.Labels`
 * message (`labels: {labels: [...]}`), and two of its GPU example jobs still
 * do; that form reads as the same list.
 */
export const labelListSchema = z.union(
  [
    boundedList(labelSchema, MAX_LABELS),
    z
      .strictObject({ labels: boundedList(labelSchema, MAX_LABELS) })
      .transform((wrapped) => wrapped.labels),
  ],
  { error: "labels are a list of {key, value}" },
);
