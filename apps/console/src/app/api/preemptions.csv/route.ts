import { handlePreemptionsCsv } from "@peloton/api/http";

// The history is live: never cache or prerender the export.
export const dynamic = "force-dynamic";

export const GET = (req: Request) => handlePreemptionsCsv(req);
