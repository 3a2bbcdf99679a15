import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { Suspense } from "react";
import {
  listInput,
  readPreemptionsQuery,
  writePreemptionsQuery,
} from "@/components/preemptions/preemptions-query";
import { PreemptionsView } from "@/components/preemptions/preemptions-view";
import { serverCaller } from "@/server/caller";

export const metadata: Metadata = { title: "Preemptions" };
export const dynamic = "force-dynamic";

export default async function PreemptionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = await searchParams;
  const params = new URLSearchParams(
    Object.entries(raw).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])),
  );
  const query = readPreemptionsQuery(params);
  // The first paint has the rows; bad filters are the client's to explain, beside the filters.
  const initial = await serverCaller()
    .preemptions.list(listInput(query))
    .catch((err: unknown) => {
      if (err instanceof TRPCError && err.code === "BAD_REQUEST") return null;
      throw err;
    });
  return (
    <Suspense>
      <PreemptionsView
        initial={initial}
        initialQuery={writePreemptionsQuery({ ...query, open: null })}
      />
    </Suspense>
  );
}
