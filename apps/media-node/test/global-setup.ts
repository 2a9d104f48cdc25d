import type { TestProject } from 'vitest/node';
import { startControlPlane } from './harness.js';

/**
 * One control plane (the real API on PGlite) for the whole media suite: it takes 10–25 s to start, so the
 * test files share it. Each file runs its own media node (`useMediaNode`) and removes it afterwards; the
 * files run one at a time, so a file's streams are placed on its own node.
 */
export default async function setup(project: TestProject) {
  // Webhook receivers of the tests listen on loopback.
  const plane = await startControlPlane({ NODE_SILENCE_SECONDS: '4', CALLBACK_ALLOW_PRIVATE_NETWORKS: 'on' });
  project.provide('controlPlane', { url: plane.url, token: plane.token });
  return () => plane.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    controlPlane: { url: string; token: string };
  }
}
