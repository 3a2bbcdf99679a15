import Link from "next/link";

export default function HostNotFound() {
  return (
    <div className="mx-auto mt-10 max-w-xl rounded-lg border border-border bg-surface p-6">
      <h1 className="font-semibold">No such host</h1>
      <p className="mt-2 text-muted">
        No agent has registered with this hostname. Hosts appear when their agent registers with the
        cluster; a host whose agent is gone stays listed as LOST.
      </p>
      <Link href="/hosts" className="mt-4 inline-block text-accent hover:underline">
        All hosts
      </Link>
    </div>
  );
}
