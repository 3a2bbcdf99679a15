import type { JobConfigProblem } from "../problems.ts";
import type { TaskSource } from "../task-sources.ts";

const PORT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Peloton's `validatePortConfig`: every port has a name, and a dynamic port
 * (no `value`) has the `envName` its number is exported as. Ours on top: names
 * are simple identifiers and unique within the task, env names are valid
 * variable names, and a static `value` is a port number, 1–65535, used once
 * (two tasks' static ports on one host would collide; one task's twice
 * certainly does).
 */
export function checkPorts(source: TaskSource): JobConfigProblem[] {
  const ports = source.config.ports ?? [];
  const problems: JobConfigProblem[] = [];
  const names = new Map<string, number>();
  const values = new Map<number, number>();
  ports.forEach((port, i) => {
    const at = (f: string) => `${source.fieldOf("ports")}[${i}].${f}`;
    if (port.name === "")
      problems.push({
        code: "PORT_NAME_MISSING",
        field: at("name"),
        message: "a port needs a name",
      });
    else if (!PORT_NAME.test(port.name))
      problems.push({
        code: "PORT_NAME_INVALID",
        field: at("name"),
        message: `port name ${JSON.stringify(port.name)} may use letters, digits, _ and - (1–63 characters)`,
      });
    else if (names.has(port.name))
      problems.push({
        code: "PORT_NAME_DUPLICATE",
        field: at("name"),
        message: `port name ${JSON.stringify(port.name)} is already used by ports[${names.get(port.name)}]`,
      });
    else names.set(port.name, i);

    const dynamic = port.value === undefined || port.value === 0;
    if (dynamic && !port.envName)
      problems.push({
        code: "PORT_ENV_NAME_MISSING",
        field: at("envName"),
        message: `dynamic port ${JSON.stringify(port.name)} needs an envName to export its number as`,
      });
    if (port.envName && !ENV_NAME.test(port.envName))
      problems.push({
        code: "PORT_ENV_NAME_INVALID",
        field: at("envName"),
        message: `envName ${JSON.stringify(port.envName)} is not a variable name (letters, digits, _; not starting with a digit)`,
      });
    if (dynamic) return;
    const value = port.value as number;
    if (!Number.isInteger(value) || value < 1 || value > 65535)
      problems.push({
        code: "PORT_VALUE_OUT_OF_RANGE",
        field: at("value"),
        message: `static port ${value} must be a whole number from 1 to 65535`,
      });
    else if (values.has(value))
      problems.push({
        code: "PORT_VALUE_DUPLICATE",
        field: at("value"),
        message: `static port ${value} is already used by ports[${values.get(value)}]`,
      });
    else values.set(value, i);
  });
  return problems;
}
