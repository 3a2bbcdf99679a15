import { CommanderError } from "commander";
import { apiUrl } from "./api-client.ts";
import { CliError, describeError } from "./errors.ts";
import { buildProgram } from "./program.ts";

const program = buildProgram({ print: (s) => console.log(s) });
try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  console.error(`peloton: ${describeError(err, apiUrl())}`);
  process.exit(err instanceof CliError ? err.exitCode : 1);
}
