import Link from "next/link";

/** `/jobs/<id>` for an id that names no job (or is not a job id): a 404 of its own. */
export default function JobNotFound() {
  return (
    <div
      className="mx-auto mt-10 max-w-xl rounded-lg border border-border bg-surface p-6"
      data-testid="job-not-found"
    >
      <h1 className="font-semibold">No such job</h1>
      <p className="mt-2 text-muted">
        No job has this id. It may have been deleted; what was done to it is still in the audit log.
      </p>
      <div className="mt-4 flex gap-4">
        <Link href="/jobs" className="text-accent hover:underline">
          All jobs
        </Link>
        <Link href="/audit" className="text-accent hover:underline">
          The audit log
        </Link>
      </div>
    </div>
  );
}
