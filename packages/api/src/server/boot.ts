/** Server start-up for the console's launcher (see @peloton/scheduler/boot). */
export {
  agentsFromArgument,
  type BootedSystem,
  bootSystem,
  StartupError,
} from "@peloton/scheduler/boot";
