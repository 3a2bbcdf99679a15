import { handleYarpcRequest } from "@peloton/peloton-api/yarpc";

// Peloton's API as YARPC JSON over HTTP (packages/peloton-api): live state, never cached.
export const dynamic = "force-dynamic";

export function POST(req: Request): Promise<Response> {
  return handleYarpcRequest(req);
}
