import { handleTrpcRequest } from "@peloton/api/http";

// The API reads live state: never cache or prerender it.
export const dynamic = "force-dynamic";

const handler = (req: Request) => handleTrpcRequest(req);

export { handler as GET, handler as POST };
