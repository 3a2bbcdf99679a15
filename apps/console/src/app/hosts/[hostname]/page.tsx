import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { HostPage } from "@/components/hosts/host-page";
import { serverCaller } from "@/server/caller";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ hostname: string }> };

const hostnameOf = async (params: Params["params"]) => decodeURIComponent((await params).hostname);

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: await hostnameOf(params) };
}

export default async function Host({ params }: Params) {
  const hostname = await hostnameOf(params);
  try {
    const initial = await serverCaller().hosts.get({ hostname });
    return (
      <Suspense>
        <HostPage initial={initial} />
      </Suspense>
    );
  } catch (err) {
    if (err instanceof TRPCError && (err.code === "NOT_FOUND" || err.code === "BAD_REQUEST"))
      notFound();
    throw err;
  }
}
