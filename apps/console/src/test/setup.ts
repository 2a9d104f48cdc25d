import { takeUnhandledRequests } from '@streamcloud/api-client/testing';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { preloadLazyComponents } from '@/components/ui/on-demand';
import { installFakeCanvas } from './canvas';

// findBy*/waitFor wait up to 5 s, not Testing Library's 1 s: on a loaded machine (CI's two cores, the
// suites beside it) a screen's first render alone can take longer. The tests' own time limit is in
// vitest.config.ts, above this.
configure({ asyncUtilTimeout: 5000 });

// Screens and modals fetch their code on demand (components/ui/on-demand.tsx); a test file gets it all up
// front, as when every module was imported statically, so no first render waits on a module transform.
// The same for what the sign-in loads with its first check and call (login-form.tsx, auth-store.ts).
beforeAll(() =>
  Promise.all([preloadLazyComponents(), import('@/features/auth/utils/login-rules'), import('@/lib/auth-routes')]),
);

// Not in a test file that runs in Node (`@vitest-environment node`): there is no DOM to draw in.
beforeEach(() => {
  if (typeof window !== 'undefined') installFakeCanvas();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  const unhandled = takeUnhandledRequests();
  if (unhandled.length > 0) throw new Error(`Requests without a handler: ${unhandled.join(', ')}`);
});
