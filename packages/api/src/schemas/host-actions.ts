/**
 * Host maintenance input (Peloton's StartMaintenanceRequest and
 * CompleteMaintenanceRequest, with the reason the CLI takes as -r), shared
 * by the API, the console's maintenance dialog and the CLI. Browser-safe:
 * engine and zod only.
 */
import { boundedText, MAX_VALUE_LENGTH } from "@peloton/engine";
import { z } from "zod";

export const hostnameSchema = boundedText(253, { trim: true, min: 1, minMessage: "name a host" });

/** `hosts.startMaintenance` / `hosts.completeMaintenance`. */
export const hostActionInput = z.object({
  hostname: hostnameSchema,
  /** Why: kept in the host's maintenance history, its state reason and the audit log. */
  reason: boundedText(MAX_VALUE_LENGTH, { trim: true }).default(""),
});
export type HostActionInput = z.input<typeof hostActionInput>;
