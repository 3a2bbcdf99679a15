import type { Metadata } from "next";
import { Suspense } from "react";
import { PoolsPage } from "@/components/pools/pools-page";
import { serverCaller } from "@/server/caller";

export const metadata: Metadata = { title: "Pools" };
// Live cluster state: render on every request, never at build time.
export const dynamic = "force-dynamic";

export default async function Pools() {
  const initial = await serverCaller().pools.tree();
  return (
    <Suspense>
      <PoolsPage initial={initial} />
    </Suspense>
  );
}
