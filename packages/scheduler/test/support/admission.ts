/**
 * The admission loop alone on stored rows (hosts written by the test), with
 * the memory its admitted tasks wait in for a placement that is not running.
 */
import type { StorageGateway } from "@peloton/storage";
import { AdmissionLoop } from "../../src/resmgr/admission-loop.ts";
import { AdmittedTasks } from "../../src/resmgr/admitted-tasks.ts";
import { JobConfigs } from "../../src/taskwriter/job-configs.ts";
import { TaskWriter } from "../../src/taskwriter/task-writer.ts";
import { log, onCleanup } from "./cluster.ts";

export function startAdmission(gateway: StorageGateway): {
  loop: AdmissionLoop;
  admitted: AdmittedTasks;
} {
  const admitted = new AdmittedTasks();
  const loop = new AdmissionLoop({
    gateway,
    writer: new TaskWriter(gateway, log),
    configs: new JobConfigs(gateway),
    admitted,
    log,
    periodMs: 100,
  });
  loop.start();
  onCleanup(() => loop.stop());
  return { loop, admitted };
}

/** The jobs of the admitted tasks placement would take now (taken: admission leaves them alone). */
export const takeAdmitted = (admitted: AdmittedTasks): string[] =>
  admitted.take(100).map((t) => t.row.jobId);
