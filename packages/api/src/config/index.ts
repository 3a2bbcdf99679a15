/**
 * `@peloton/api/config`: Peloton's YAML files (lowercase or camelCase keys,
 * null for "not set", enums by name or number) decoded with the API's schemas,
 * every problem naming its field and line. For the CLI and the console's
 * editors; no server code.
 */
export { checkJobYaml, type JobYamlCheck } from "./job-yaml.ts";
export {
  ConfigError,
  type ConfigIssue,
  type DecodedYaml,
  decodePelotonYaml,
  formatIssue,
  parsePelotonYaml,
} from "./peloton-yaml.ts";
