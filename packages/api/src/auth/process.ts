/**
 * The process's authentication: one better-auth instance over the process's Prisma client and environment. Kept on
 * globalThis, like the gateway, so Next's module re-evaluation reuses them.
 */
import { processDb } from "../server/gateway.ts";
import { createAuth, type PelotonAuth } from "./better-auth.ts";
import { createAuthHandler } from "./handler.ts";
import { LoginFailureLimiter } from "./login-limit.ts";
import { type AuthSettings, readAuthSettings } from "./settings.ts";

const holder = globalThis as unknown as {
  __pelotonAuthSettings?: AuthSettings;
  __pelotonAuth?: PelotonAuth;
  __pelotonAuthHandler?: (req: Request) => Promise<Response>;
};

export function processAuthSettings(): AuthSettings {
  holder.__pelotonAuthSettings ??= readAuthSettings(process.env);
  return holder.__pelotonAuthSettings;
}

export function processAuth(): PelotonAuth {
  holder.__pelotonAuth ??= createAuth(processDb(), processAuthSettings());
  return holder.__pelotonAuth;
}

/** The console's /api/auth/* route. */
export function handleAuthRequest(req: Request): Promise<Response> {
  holder.__pelotonAuthHandler ??= createAuthHandler({
    auth: processAuth(),
    settings: processAuthSettings(),
    limiter: new LoginFailureLimiter(),
  });
  return holder.__pelotonAuthHandler(req);
}
