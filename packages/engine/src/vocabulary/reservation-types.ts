/**
 * ELASTIC (the default) lends the unused part of a reservation to others; STATIC
 * keeps the whole reservation whether used or not (peloton-semantics.md §1,
 * phase 1). The numbers are Peloton's respool proto's.
 */
export const RESERVATION_TYPE_NUMBERS = { ELASTIC: 1, STATIC: 2 } as const;
export type ReservationType = keyof typeof RESERVATION_TYPE_NUMBERS;
export const RESERVATION_TYPES = Object.keys(RESERVATION_TYPE_NUMBERS) as [
  ReservationType,
  ...ReservationType[],
];
