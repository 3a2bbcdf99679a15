import type { Metadata } from "next";
import Link from "next/link";
import { NewJobForm } from "@/components/jobs/new/new-job-form";
import { serverCaller } from "@/server/caller";

export const metadata: Metadata = { title: "New job" };
export const dynamic = "force-dynamic";

export default async function NewJob({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { pool } = await searchParams;
  const tree = await serverCaller().pools.tree();
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-muted">
        <Link href="/jobs" className="hover:text-fg hover:underline">
          Jobs
        </Link>{" "}
        / <span className="text-fg">New job</span>
      </nav>
      <h1 className="text-lg font-semibold">New job</h1>
      <NewJobForm pools={tree.pools} initialPool={typeof pool === "string" ? pool : ""} />
    </div>
  );
}
