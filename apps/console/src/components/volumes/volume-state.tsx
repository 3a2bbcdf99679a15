import { TONE_DOT, volumeTone } from "@/lib/states";

const MEANING: Record<string, string> = {
  INITIALIZED: "pinned to its host; the instance's first launch creates it",
  CREATED: "created on its host; every run of the instance mounts it there",
  DELETED: "deleted from its host",
};

/** A volume's state with its colour dot, and what it means on hover. */
export function VolumeStateBadge({ state }: { state: string }) {
  return (
    <span
      className="inline-flex items-center gap-1.5 whitespace-nowrap"
      data-testid="volume-state"
      data-state={state}
      title={MEANING[state]}
    >
      <span aria-hidden className={`size-2 shrink-0 rounded-full ${TONE_DOT[volumeTone(state)]}`} />
      {state}
    </span>
  );
}
