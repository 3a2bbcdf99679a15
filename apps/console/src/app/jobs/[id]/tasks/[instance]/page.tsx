import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { TaskPage } from "@/components/tasks/task-page";
import { serverCaller } from "@/server/caller";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string; instance: string }> };

async function taskOf(params: Params["params"]) {
  const { id, instance } = await params;
  if (!/^\d+$/.test(instance)) notFound();
  try {
    return await serverCaller().tasks.get({ jobId: id, instance: Number(instance) });
  } catch (err) {
    if (err instanceof TRPCError && (err.code === "NOT_FOUND" || err.code === "BAD_REQUEST"))
      notFound();
    throw err;
  }
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { instance } = await params;
  return { title: `Instance ${instance}` };
}

export default async function Task({ params }: Params) {
  const initial = await taskOf(params);
  return (
    <Suspense>
      <TaskPage initial={initial} />
    </Suspense>
  );
}
