import type { Metadata } from "next";
import { Suspense } from "react";
import { listInput, readHostsQuery, writeHostsQuery } from "@/components/hosts/hosts-query";
import { HostsView } from "@/components/hosts/hosts-view";
import { serverCaller } from "@/server/caller";

export const metadata: Metadata = { title: "Hosts" };
export const dynamic = "force-dynamic";

export default async function HostsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const raw = await searchParams;
  const params = new URLSearchParams(
    Object.entries(raw).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])),
  );
  const query = readHostsQuery(params);
  // The first paint already has the rows; the client then follows the URL and live changes.
  const initial = await serverCaller().hosts.list(listInput(query));
  return (
    <Suspense>
      <HostsView initial={initial} initialQuery={writeHostsQuery(query)} />
    </Suspense>
  );
}
