import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { Suspense } from "react";
import { listInput, readVolumesQuery, writeVolumesQuery } from "@/components/volumes/volumes-query";
import { VolumesView } from "@/components/volumes/volumes-view";
import { serverCaller } from "@/server/caller";

export const metadata: Metadata = { title: "Volumes" };
export const dynamic = "force-dynamic";

export default async function VolumesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = await searchParams;
  const params = new URLSearchParams(
    Object.entries(raw).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])),
  );
  const query = readVolumesQuery(params);
  // The first paint already has the rows; a filter the API refuses (a job id that is not one)
  // is the client's to explain beside the filters.
  const initial = await serverCaller()
    .volumes.list(listInput(query))
    .catch((err: unknown) => {
      if (err instanceof TRPCError && err.code === "BAD_REQUEST") return null;
      throw err;
    });
  return (
    <Suspense>
      <VolumesView initial={initial} initialQuery={writeVolumesQuery(query)} />
    </Suspense>
  );
}
