import { type ComponentType, lazy, type ReactNode, Suspense, useRef } from 'react';

type Loader<Module> = () => Promise<Module>;
// biome-ignore lint/suspicious/noExplicitAny: any component, whatever its props
type AnyComponent = ComponentType<any>;

const loaders = new Set<Loader<unknown>>();

/**
 * Loads every lazy component defined so far, and those their modules define in turn: tests call it so that
 * screens and modals are ready as if they had been imported up front.
 */
export async function preloadLazyComponents(): Promise<void> {
  let loaded = -1;
  while (loaded < loaders.size) {
    loaded = loaders.size;
    await Promise.all([...loaders].map((load) => load()));
  }
}

/**
 * A component whose code is fetched the first time it renders (React.lazy: render it inside a Suspense);
 * `load` imports its module, `name` is the export. `preload()` fetches it ahead of time.
 */
export function lazyComponent<Module extends Record<Name, AnyComponent>, Name extends keyof Module & string>(
  load: Loader<Module>,
  name: Name,
) {
  loaders.add(load);
  return Object.assign(
    lazy<Module[Name]>(async () => ({ default: (await load())[name] })),
    { preload: load },
  );
}

/**
 * Mounts a lazy modal (see lazyComponent) the first time `show` is true — its code is fetched then — and
 * keeps it mounted afterwards, so it animates its closing. Until then nothing is rendered or fetched.
 */
export function OnDemand({ show, children }: { show: boolean; children: ReactNode }) {
  const shown = useRef(false);
  if (show) shown.current = true;
  if (!shown.current) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}
