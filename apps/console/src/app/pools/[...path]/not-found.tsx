import Link from "next/link";

export default function PoolNotFound() {
  return (
    <div className="mx-auto mt-10 max-w-xl rounded-lg border border-border bg-surface p-6">
      <h1 className="font-semibold">No such pool</h1>
      <p className="mt-2 text-muted">
        No pool has this path. It may have been deleted; its history is still in the audit log.
      </p>
      <Link href="/pools" className="mt-4 inline-block text-accent hover:underline">
        All pools
      </Link>
    </div>
  );
}
