import type { Metadata } from "next";
import { Suspense } from "react";
import { listInput, readJobsQuery, writeJobsQuery } from "@/components/jobs/jobs-query";
import { JobsView } from "@/components/jobs/jobs-view";
import { serverCaller } from "@/server/caller";

export const metadata: Metadata = { title: "Jobs" };
export const dynamic = "force-dynamic";

export default async function JobsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = await searchParams;
  const params = new URLSearchParams(
    Object.entries(raw).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])),
  );
  const query = readJobsQuery(params);
  // The first paint already has the rows; the client then follows the URL and live changes.
  const initial = await serverCaller().jobs.list(listInput(query));
  return (
    <Suspense>
      <JobsView initial={initial} initialQuery={writeJobsQuery(query)} />
    </Suspense>
  );
}
