import { Children, isValidElement, type ReactNode } from 'react';

/** What preloading needs of a route match: the router's own (`router.state.matches`) are these. */
export interface ScreenMatch {
  route: { element?: ReactNode };
}

/**
 * Starts fetching the code of everything the matched routes show (the signed-in frame, a guard, the screen)
 * at once. Left to render, each lazy part would only be asked for once the part around it had arrived and
 * rendered: one round trip after the other on the first load. Takes the router's matches for the location
 * rather than matching the routes again: matching flattens and ranks every route, a cost the first load
 * pays on a slow phone (issue 21).
 */
export function preloadScreens(matches: readonly ScreenMatch[]): void {
  for (const match of matches) preloadElement(match.route.element);
}

/** Preloads the element's component when it is lazy (see lazyComponent), and those of its children. */
function preloadElement(node: ReactNode): void {
  Children.forEach(node, (child) => {
    if (!isValidElement<{ children?: ReactNode }>(child)) return;
    (child.type as { preload?: () => unknown }).preload?.();
    preloadElement(child.props.children);
  });
}
