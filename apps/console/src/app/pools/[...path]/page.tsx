import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { PoolPage } from "@/components/pools/pool-page";
import { serverCaller } from "@/server/caller";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ path: string[] }> };

const poolPath = async (params: Params["params"]) =>
  `/${(await params).path.map(decodeURIComponent).join("/")}`;

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: await poolPath(params) };
}

export default async function Pool({ params }: Params) {
  const path = await poolPath(params);
  const caller = serverCaller();
  try {
    const [initial, initialHistory] = await Promise.all([
      caller.pools.get({ path }),
      caller.pools.history({ path, limit: 20 }),
    ]);
    return (
      <Suspense>
        <PoolPage initial={initial} initialHistory={initialHistory} />
      </Suspense>
    );
  } catch (err) {
    if (err instanceof TRPCError && (err.code === "NOT_FOUND" || err.code === "BAD_REQUEST"))
      notFound();
    throw err;
  }
}
