import { Skeleton } from "@/components/ui/card";

export default function Loading() {
  return (
    <div className="space-y-5" role="status" aria-busy="true" aria-label="Loading">
      <Skeleton className="h-6 w-48" />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-20" />
        ))}
      </div>
      <Skeleton className="h-32" />
      <Skeleton className="h-64" />
    </div>
  );
}
