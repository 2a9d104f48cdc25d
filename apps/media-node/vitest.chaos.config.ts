import { defineConfig } from 'vitest/config';

/**
 * The chaos run (`npm run chaos`, scripts/chaos.mjs): its own control plane on the PostgreSQL the script
 * started, its own node; one scenario at a time, for as long as the schedule takes.
 */
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.chaos.ts'],
    testTimeout: 30 * 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    maxWorkers: 1,
  },
});
