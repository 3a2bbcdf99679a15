/** A persistent volume's life: pinned to a host (INITIALIZED), made by its first launch (CREATED), DELETED. */
export const VOLUME_STATES = ["INITIALIZED", "CREATED", "DELETED"] as const;
export type VolumeState = (typeof VOLUME_STATES)[number];
