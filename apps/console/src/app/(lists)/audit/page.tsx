import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { Suspense } from "react";
import { listInput, readAuditQuery, writeAuditQuery } from "@/components/audit/audit-query";
import { AuditView } from "@/components/audit/audit-view";
import { serverCaller } from "@/server/caller";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = await searchParams;
  const params = new URLSearchParams(
    Object.entries(raw).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])),
  );
  const query = readAuditQuery(params);
  // The first paint has the rows; bad filters are the client's to explain, beside the filters.
  const initial = await serverCaller()
    .audit.list(listInput(query))
    .catch((err: unknown) => {
      if (err instanceof TRPCError && err.code === "BAD_REQUEST") return null;
      throw err;
    });
  return (
    <Suspense>
      <AuditView initial={initial} initialQuery={writeAuditQuery({ ...query, open: null })} />
    </Suspense>
  );
}
