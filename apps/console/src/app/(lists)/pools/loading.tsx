import { Skeleton } from "@/components/ui/card";

export default function Loading() {
  return (
    <div className="space-y-4" role="status" aria-busy="true" aria-label="Loading pools">
      <Skeleton className="h-6 w-56" />
      <Skeleton className="h-5 w-96" />
      <Skeleton className="h-96" />
    </div>
  );
}
