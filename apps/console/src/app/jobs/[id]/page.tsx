import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { JobPage } from "@/components/jobs/job/job-page";
import { INSTANCES_PAGE } from "@/components/jobs/jobs-query";
import { serverCaller } from "@/server/caller";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** A job the page cannot show: unknown, or not a job id at all. */
function missing(err: unknown): boolean {
  return err instanceof TRPCError && (err.code === "NOT_FOUND" || err.code === "BAD_REQUEST");
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { id } = await params;
  try {
    return { title: (await serverCaller().jobs.get({ id })).name };
  } catch {
    return { title: "Job" };
  }
}

export default async function Job({ params }: Params) {
  const { id } = await params;
  const caller = serverCaller();
  try {
    const [initial, initialTasks] = await Promise.all([
      caller.jobs.get({ id }),
      caller.tasks.list({ jobId: id, limit: INSTANCES_PAGE }),
    ]);
    return (
      <Suspense>
        <JobPage initial={initial} initialTasks={initialTasks} />
      </Suspense>
    );
  } catch (err) {
    if (missing(err)) notFound();
    throw err;
  }
}
