import { handleHealthRequest } from "@peloton/api/http";

// Health is live state: never cache or prerender it.
export const dynamic = "force-dynamic";

/** Load balancers and operators: 200 with the report, 503 while the database is unreachable. */
export const GET = () => handleHealthRequest();
