import { type ComponentProps, type ComponentType, lazy, type ReactNode, Suspense, useRef, useState } from 'react';

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
 *
 * Once the code is there (preloaded, or shown before) it renders at once, without React.lazy: a lazy
 * component suspends on its first render even when its module has arrived, and the screen inside a lazy
 * frame would then show its fallback and be revealed only after React's fallback throttle (300 ms).
 */
export function lazyComponent<Module extends Record<Name, AnyComponent>, Name extends keyof Module & string>(
  load: Loader<Module>,
  name: Name,
) {
  let loaded: Module[Name] | undefined;
  const preload = async () => {
    const module = await load();
    loaded = module[name];
    return module;
  };
  loaders.add(preload);
  const Lazy = lazy<Module[Name]>(async () => ({ default: (await preload())[name] }));
  // biome-ignore lint/correctness/noComponentHookFactories: a factory called once per screen or modal at module level (app/screens.ts), never while rendering
  function OnDemandComponent(props: ComponentProps<Module[Name]>) {
    // Chosen once per mount: switching from the lazy wrapper to the component would mount it anew.
    const [Component] = useState<AnyComponent>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(OnDemandComponent, { preload });
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
