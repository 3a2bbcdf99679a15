/**
 * The suite's sign-in facts, without imports: serve.ts (a plain Node process)
 * and console-server.ts start consoles with them; auth.ts signs in with them.
 */
export const E2E_ADMIN_LOGIN = "admin";
export const E2E_ADMIN_PASSWORD = "e2e-admin-password-123";
/** Shared by every console the suite starts, so one session cookie works on all of them. */
export const E2E_AUTH_SECRET = "e2e-auth-secret-0123456789abcdef0123456789abcdef";
/** The signed-in admin's browser state (cookies), used by every spec (playwright.config.ts). */
export const ADMIN_STATE_FILE = "test-results/e2e-admin-state.json";

/** The environment every console server of the suite starts with. */
export const AUTH_ENV = {
  PELOTON_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
  PELOTON_AUTH_SECRET: E2E_AUTH_SECRET,
};
