/**
 * The input limits (engine/limits) for the console's forms and the CLI, next
 * to the schemas that apply them: a form can show the same number the API
 * refuses with.
 */
export {
  formatCount,
  INPUT_LIMITS,
  MAX_COMMAND_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_INSTANCES,
  MAX_LABELS,
  MAX_LDAP_GROUPS,
  MAX_NAME_LENGTH,
  MAX_POOL_AMOUNT,
  MAX_POOL_NAME_LENGTH,
  MAX_POOL_SHARE,
  MAX_PRIORITY,
  MAX_TASK_CPU,
  MAX_TASK_DISK_MB,
  MAX_TASK_GPU,
  MAX_TASK_MEM_MB,
  MAX_YAML_LENGTH,
} from "@peloton/engine";
