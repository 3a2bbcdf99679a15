/**
 * What users do to an update in flight (Peloton's PauseUpdate, ResumeUpdate,
 * AbortUpdate, and our manual rollback). Each is one guarded write of the
 * update's row with its history, audit row and announcement; the workflow
 * loop acts on the new state on its next tick. Instances are left as they
 * are: an abort stops the workflow, not the tasks.
 */
import { isActiveUpdateState, type UpdateState } from "@peloton/engine";
import type { JobUpdateRecord, JobUpdateWrite, StorageGateway } from "@peloton/storage";
import type { Acting } from "../../common/acting.ts";
import { refuse, type UpdateFailure, type UpdateResult } from "./failures.ts";
import { recordUpdateChange } from "./record-change.ts";
import { startRollback } from "./start-rollback.ts";

export type UpdateAction = "pause" | "resume" | "abort" | "rollback";

export async function actOnUpdate(
  gateway: StorageGateway,
  updateId: string,
  action: UpdateAction,
  acting: Acting,
): Promise<UpdateResult> {
  return gateway.transaction(async (tx) => {
    const update = await tx.updates.get(updateId);
    if (update === null) return refuse({ kind: "update_not_found", updateId });
    if (!isActiveUpdateState(update.state))
      return refuse({ kind: "finished", updateId, state: update.state, action });
    const refused = refusal(update, action);
    if (refused) return refuse(refused);
    if (action === "rollback") {
      const rolled = await startRollback(tx, update, acting, `rolled back by ${acting.login}`);
      return rolled ? { ok: true, update: rolled } : refuse({ kind: "conflict", updateId });
    }
    const write = writeFor(update, action, acting);
    const written = await tx.updates.write(update.id, update.version, write);
    if (!written) return refuse({ kind: "conflict", updateId });
    await recordUpdateChange(tx, written, {
      before: update.state,
      message: write.message ?? action,
      acting,
      action: `update.${action}`,
    });
    return { ok: true, update: written };
  });
}

function refusal(update: JobUpdateRecord, action: UpdateAction): UpdateFailure | null {
  const wrong = { kind: "wrong_state", updateId: update.id, state: update.state, action } as const;
  switch (action) {
    case "pause":
      return update.state === "PAUSED" ? wrong : null;
    case "resume":
      return update.state === "PAUSED" ? null : wrong;
    case "abort":
      return null;
    case "rollback":
      if (update.kind !== "UPDATE") return { kind: "not_rollbackable", updateId: update.id };
      return update.state === "ROLLING_BACKWARD" ||
        (update.state === "PAUSED" && update.previousState === "ROLLING_BACKWARD")
        ? wrong
        : null;
  }
}

function writeFor(
  update: JobUpdateRecord,
  action: Exclude<UpdateAction, "rollback">,
  acting: Acting,
): JobUpdateWrite {
  const by = acting.login;
  switch (action) {
    case "pause":
      return {
        state: "PAUSED",
        previousState: update.state,
        message: `paused by ${by}: no new instance starts until it is resumed`,
      };
    case "resume": {
      // An update created paused resumes rolling forward.
      const back: UpdateState =
        update.previousState && update.previousState !== "INITIALIZED"
          ? update.previousState
          : "ROLLING_FORWARD";
      return { state: back, previousState: "PAUSED", message: `resumed by ${by}` };
    }
    case "abort":
      return {
        state: "ABORTED",
        previousState: update.state,
        instancesCurrent: [],
        completedAt: new Date(),
        message: `aborted by ${by}: instances stay as they are`,
      };
  }
}
