import Link from "next/link";

export default function NotFound() {
  return (
    <div className="mx-auto mt-10 max-w-xl rounded-lg border border-border bg-surface p-6">
      <h1 className="font-semibold">Nothing here</h1>
      <p className="mt-2 text-muted">This address does not name a page of the console.</p>
      <Link href="/" className="mt-4 inline-block text-accent hover:underline">
        Back to the overview
      </Link>
    </div>
  );
}
