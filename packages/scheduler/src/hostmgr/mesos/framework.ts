/** The framework's name by default: also the key of its stored subscription (the framework row). */
export const DEFAULT_FRAMEWORK_NAME = "peloton";
