/** Server start-up for the console's launcher (see @peloton/scheduler/boot). */
export {
  agentsFromArgument,
  type BootedSystem,
  bootSystem,
  type EmbeddedServer,
  formatDatabaseUrl,
  preemptionFromEnv,
  StartupError,
  startEmbeddedPostgres,
} from "@peloton/scheduler/boot";
