import { CommanderError } from "commander";
import { apiUrl } from "./api-client.ts";
import { tokenFor } from "./credentials.ts";
import { CliError, describeError } from "./errors.ts";
import { buildProgram } from "./program.ts";

/** The API's address for an error line; a bad PELOTON_URL is the error itself then. */
function urlForErrors(): string {
  try {
    return apiUrl();
  } catch {
    return "PELOTON_URL";
  }
}

const program = buildProgram({ print: (s) => console.log(s) });
try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  const url = urlForErrors();
  console.error(`peloton: ${describeError(err, url, tokenFor(url) !== null)}`);
  process.exit(err instanceof CliError ? err.exitCode : 1);
}
