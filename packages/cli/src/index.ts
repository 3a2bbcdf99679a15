export { apiUrl, createApiClient } from "./api-client.ts";
export { CliError, describeError } from "./errors.ts";
export { buildProgram, VERSION } from "./program.ts";
