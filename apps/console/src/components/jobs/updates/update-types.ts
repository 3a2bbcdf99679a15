/**
 * The update workflow's data as the console shows it: the router's outputs
 * (docs/updates.md `UpdateView`), never re-declared.
 */
import type { BatchState, UpdateState } from "@peloton/api/schemas";
import type { RouterOutputs } from "@/lib/api-types";

export type { BatchState, UpdateState };
export type UpdateView = RouterOutputs["updates"]["get"];
/** Peloton's UpdateConfig with every field given (the form's values). */
export type UpdateOptions = UpdateView["options"];
export type UpdateEvent = RouterOutputs["updates"]["events"]["items"][number];
