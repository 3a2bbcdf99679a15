import { handleAuthRequest } from "@peloton/api/http";

// Sessions and sign-in: never cached or prerendered.
export const dynamic = "force-dynamic";

/**
 * better-auth's endpoints (sign-in, sign-out, session, OpenID) and our
 * GET /api/auth/providers, through packages/api/src/auth/handler.ts.
 */
const handler = (req: Request) => handleAuthRequest(req);

export { handler as GET, handler as POST };
