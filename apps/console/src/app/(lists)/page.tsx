import type { Metadata } from "next";
import { Suspense } from "react";
import { Overview } from "@/components/overview/overview";
import { serverCaller } from "@/server/caller";

export const metadata: Metadata = { title: "Overview" };
// Live cluster state: render on every request, never at build time.
export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  // Rendered on the server so the first paint (and curl) already has the figures.
  const initial = await serverCaller().overview.summary();
  return (
    <Suspense>
      <Overview initial={initial} />
    </Suspense>
  );
}
