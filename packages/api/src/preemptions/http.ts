/**
 * GET /api/preemptions.csv?<the console's filters>: the export as a file.
 * The query string is the page's own (`preemptionFiltersFromQuery`), checked
 * by the list's schema; a bad filter is a 400 naming the field, not a file.
 */
import type { ReadOnlyGateway } from "@peloton/storage";
import { zodIssues } from "../issues.ts";
import { preemptionFiltersFromQuery, preemptionFiltersSchema } from "../schemas/preemptions.ts";
import { csvFilename, preemptionsCsv } from "./csv.ts";
import { storageFilters } from "./filters.ts";

export function preemptionsCsvResponse(
  gateway: ReadOnlyGateway,
  url: URL,
  now = new Date(),
): Response {
  const input = preemptionFiltersFromQuery(url.searchParams);
  const parsed = preemptionFiltersSchema.safeParse(input);
  if (!parsed.success) {
    const words = zodIssues(parsed.error, input).map((i) =>
      i.field ? `${i.field}: ${i.message}` : i.message,
    );
    return new Response(`cannot export preemptions: ${words.join("; ")}\n`, {
      status: 400,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  return new Response(preemptionsCsv(gateway, storageFilters(parsed.data)), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${csvFilename(parsed.data, now)}"`,
      "cache-control": "no-store",
    },
  });
}
