import { useLayoutEffect, useState } from 'react';

/** The class of index.html's elements that hold a screen pre-rendered at build time (app/prerender). */
export const PRERENDERED_CLASS = 'prerendered';

/** The pre-rendered copy of the screen at `path`, if index.html still has it. */
export function prerenderedCopy(path: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`.${PRERENDERED_CLASS}[data-path="${path}"]`);
}

/**
 * Removes index.html's pre-rendered screens in the commit that shows one of the app's own, so no frame shows
 * both or neither. `adopt` first takes over what the visitor did in the copy of the screen at `path` (typed
 * text, and the element of the copy that has the focus). Only the copy of the address's screen is shown
 * (public/boot.js); the others are hidden. Answers whether there is a copy to adopt: the screen then leaves
 * the focus to `adopt` (an autoFocus of its own would take it from the copy before `adopt` could see where it
 * was).
 */
export function useReplacePrerendered(
  path?: string,
  adopt?: (copy: HTMLElement, focused: Element | null) => void,
): boolean {
  const [adopting] = useState(() => typeof document !== 'undefined' && !!path && !!adopt && !!prerenderedCopy(path));
  // Once, on mount: the copies are gone afterwards.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once, when the screen first shows
  useLayoutEffect(() => {
    const copy = path ? prerenderedCopy(path) : null;
    const focused = document.activeElement;
    if (copy && adopt) adopt(copy, focused && copy.contains(focused) ? focused : null);
    for (const element of document.querySelectorAll(`.${PRERENDERED_CLASS}`)) element.remove();
  }, []);
  return adopting;
}
