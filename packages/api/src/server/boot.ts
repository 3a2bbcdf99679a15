/** Server start-up for the console's launcher (see @peloton/scheduler/boot). */
export {
  agentsFromArgument,
  type BootedSystem,
  bootSystem,
  preemptionFromEnv,
  StartupError,
} from "@peloton/scheduler/boot";
