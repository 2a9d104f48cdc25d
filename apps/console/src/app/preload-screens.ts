import { Children, isValidElement, type ReactNode } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';

/**
 * Starts fetching the code of everything the location shows (the signed-in frame, a guard, the screen)
 * at once. Left to render, each lazy part would only be asked for once the part around it had arrived and
 * rendered: one round trip after the other on the first load.
 */
export function preloadScreens(routes: RouteObject[], pathname: string): void {
  for (const match of matchRoutes(routes, pathname) ?? []) preloadElement(match.route.element);
}

/** Preloads the element's component when it is lazy (see lazyComponent), and those of its children. */
function preloadElement(node: ReactNode): void {
  Children.forEach(node, (child) => {
    if (!isValidElement<{ children?: ReactNode }>(child)) return;
    (child.type as { preload?: () => unknown }).preload?.();
    preloadElement(child.props.children);
  });
}
