"use client";
import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False during the server render and while this component hydrates, true
 * after. A part of the page behind a Suspense boundary hydrates later than
 * the layout: state that changed meanwhile (the live stream connected, who
 * is signed in arrived) must not show until then, or its text differs from
 * the server's HTML and React reports a hydration error (#418) and renders
 * the whole tree again.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
